import { List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PolicySection {
  title: string;
  body: ReactNode;
}

const items = (lines: string[]) => (
  <List size="sm" spacing={4}>
    {lines.map((line) => (
      <List.Item key={line}>{line}</List.Item>
    ))}
  </List>
);

/** The seven sections of the acceptable use policy (spec section 2, Support). */
export const policySections: PolicySection[] = [
  {
    title: 'Prohibited content and activities',
    body: (
      <>
        <Text size="sm">
          You may not use the service, or let anyone else use it, to store, host, send or
          distribute:
        </Text>
        {items([
          'content that is illegal where it is hosted or where it is accessed;',
          'child sexual abuse material (we report it to the authorities at once);',
          'material that infringes copyright, trademarks or other rights, such as pirated software, films or music;',
          'malware, ransomware, phishing pages, or tools built to commit fraud;',
          'content that incites violence or terrorism, or harasses or threatens people;',
          'scams, pyramid schemes, unlicensed gambling, or the sale of illegal goods or services.',
        ])}
        <Text size="sm">
          Cryptocurrency mining is not allowed without our prior written agreement: it degrades the
          shared hardware other customers rely on.
        </Text>
      </>
    ),
  },
  {
    title: 'Security violations',
    body: (
      <>
        {items([
          'Do not access, or try to access, any system, network, account or data without permission, including ours and those of other customers.',
          'Do not probe, scan or test the vulnerability of a system you do not own unless its owner has agreed in writing.',
          'Do not get around authentication, usage limits or monitoring, and do not share your sign-in details or impersonate someone else.',
          'Do not intercept or tamper with traffic that is not addressed to you.',
        ])}
        <Text size="sm">
          You are responsible for the software and accounts on your virtual machines: keep them up
          to date and use strong passwords or keys. A machine that has been compromised may be
          isolated from the network until it is cleaned up.
        </Text>
      </>
    ),
  },
  {
    title: 'Network abuse',
    body: items([
      'No denial-of-service attacks, and no taking part in botnets.',
      'No port scanning or flooding of networks you do not control.',
      'No open mail relays, open proxies or open DNS resolvers reachable from the internet.',
      'No forged packet headers or source addresses, and no use of IP addresses that were not assigned to you.',
      'No traffic that deliberately degrades the network for other customers.',
    ]),
  },
  {
    title: 'Email and messaging restrictions',
    body: (
      <>
        {items([
          'No unsolicited bulk e-mail or messages (spam), whether sent from the service or advertising a site hosted on it.',
          'Send only to recipients who asked for your messages, and honour unsubscribe requests promptly (within 10 days at the latest).',
          'Use accurate sender details and headers; do not hide where a message comes from.',
          'Do not buy, rent or harvest address lists.',
        ])}
        <Text size="sm">
          Follow the laws that apply to electronic marketing where you and your recipients are, such
          as CAN-SPAM and the GDPR with its ePrivacy rules.
        </Text>
      </>
    ),
  },
  {
    title: 'Legal and professional use',
    body: items([
      'Comply with every law that applies to you and your use of the service, including data protection, export control and sanctions laws.',
      'For personal data you keep on your virtual machines you are the data controller: protect it and process it lawfully.',
      'Respect the licences of the software you install; bring your own licences where they are required.',
      'Use the service professionally, and resell it only under a reseller agreement with us.',
    ]),
  },
  {
    title: 'Monitoring and enforcement',
    body: (
      <>
        <Text size="sm">
          We do not routinely look at the contents of your virtual machines. To protect the platform
          we do monitor network traffic, resource usage and security signals. When we find or are
          told about a violation we may, depending on its severity:
        </Text>
        {items([
          'warn you and ask you to fix it within a deadline;',
          'restrict the network access of the machines involved;',
          'stop or suspend virtual machines;',
          'suspend or close the account.',
        ])}
        <Text size="sm">
          Attacks in progress and clearly illegal content are dealt with immediately, without
          notice. We cooperate with law enforcement where the law requires it. Suspension for a
          violation does not entitle you to a refund or credit.
        </Text>
      </>
    ),
  },
  {
    title: 'Reporting violations',
    body: (
      <Text size="sm">
        If you see spam, an attack or illegal content coming from one of our addresses, tell us with
        Get In Touch below. Include the IP addresses involved, the date and time with the time zone,
        and the logs or e-mail headers that show it. We look into every report and do not reveal who
        made it unless the law obliges us to. If you find a security weakness in the console itself,
        report it to us privately and do not exploit it.
      </Text>
    ),
  },
];

/** The answer to "What is the acceptable use policy?". */
export function AcceptableUsePolicy() {
  return (
    <Stack gap="md">
      <Text size="sm">
        This policy applies to everyone who uses the service, including your users and your own
        customers. By using the console and your virtual machines you agree to follow it.
      </Text>
      {policySections.map((section, index) => (
        <Stack key={section.title} gap={6}>
          <Title order={4} size="h6">
            {index + 1}. {section.title}
          </Title>
          {section.body}
        </Stack>
      ))}
    </Stack>
  );
}
