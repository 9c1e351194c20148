import { Anchor, List } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { AcceptableUsePolicy } from './acceptable-use-policy';
import { Answer, B, P, Points, Steps } from './faq-text';

export interface FaqTopic {
  id: string;
  question: string;
  answer: ReactNode;
}

/** Every FAQ topic of spec section 2 (Support), in its order. */
export const faqTopics: FaqTopic[] = [
  {
    id: 'create-team',
    question: 'How do I create a team?',
    answer: (
      <Answer>
        <P>
          Open the{' '}
          <Anchor component={Link} to="/teams" inherit>
            Teams
          </Anchor>{' '}
          tab (in the sidebar, or the Teams tab of the Dashboard) and choose <B>Create Team</B>.
          Then:
        </P>
        <Steps>
          <List.Item>
            Give the team a name that no other team of your company has, and choose Next.
          </List.Item>
          <List.Item>Add people from Available Users to Team Members.</List.Item>
          <List.Item>
            Give each member a role (Manager, Operator or Viewer) and choose Save Permissions.
          </List.Item>
        </Steps>
        <P>
          Only company Admins create and delete teams. A team&apos;s Managers can rename it and
          change its members and their roles.
        </P>
      </Answer>
    ),
  },
  {
    id: 'acceptable-use',
    question: 'What is the acceptable use policy?',
    answer: <AcceptableUsePolicy />,
  },
  {
    id: 'switch-server',
    question: 'How do I move a virtual machine to another server?',
    answer: (
      <Answer>
        <P>
          A virtual machine stays on the server (country, region and provider) it was created on. To
          run on another one, create a new virtual machine there: <B>Virtual Machines</B>, then{' '}
          <B>Create Virtual Machine</B>, and choose the country and region you want. Copy your data
          and applications across, point your DNS records at the new address, and delete the old
          machine once you no longer need it.
        </P>
        <P>
          If you would rather have us migrate an existing machine with its disk, ask support with
          Get In Touch below: give the machine&apos;s name, where it is and where it should go. The
          machine has to be stopped while it moves, so we agree a time with you first.
        </P>
      </Answer>
    ),
  },
  {
    id: 'manage-users',
    question: 'How do I manage users?',
    answer: (
      <Answer>
        <P>
          Everything about users is in the{' '}
          <Anchor component={Link} to="/users" inherit>
            Users
          </Anchor>{' '}
          tab. Everybody can see the company&apos;s users; managing them needs permissions: the
          Admin role of your company. Admins can:
        </P>
        <Points>
          <List.Item>
            invite a user with <B>Create User</B> (their e-mail address, a role and optionally
            teams); the invitation link in the e-mail works for seven days;
          </List.Item>
          <List.Item>open a user to change their name, teams and role in each team;</List.Item>
          <List.Item>delete a user, who is then signed out everywhere.</List.Item>
        </Points>
        <P>
          Anyone can change their own name on their Profile. If you need something else changed, ask
          one of your company&apos;s Admins.
        </P>
      </Answer>
    ),
  },
  {
    id: 'reset-password',
    question: 'How do I reset my password?',
    answer: (
      <Answer>
        <P>
          On the sign-in page choose the <B>Forgot Password?</B> link, enter your e-mail address and
          choose Continue. We send you a link that works once, for one hour. Open it and choose a
          new password: 12 to 50 characters with a number, a special character, an uppercase and a
          lowercase letter, and no spaces.
        </P>
        <P>
          Resetting the password signs you out on every device. No e-mail after a few minutes? Check
          your spam folder. The link is only sent to accounts that have been activated: if you never
          accepted your invitation, ask an Admin to invite you again.
        </P>
      </Answer>
    ),
  },
  {
    id: 'hierarchy',
    question: 'Is there a hierarchy between my company, teams and users?',
    answer: (
      <Answer>
        <P>
          No. Your company is the account, and every user belongs to the company directly. Teams are
          groups inside the company that decide who may see and do what with its virtual machines;
          they do not own users and are not nested in one another.
        </P>
        <P>
          A user can be in several teams with a different role in each, and a role in one team gives
          nothing in another. Admins have every right across the company. Deleting a team deletes
          neither its members nor its virtual machines: the machines become unassigned.
        </P>
      </Answer>
    ),
  },
  {
    id: 'vm-configuration',
    question: 'Do I need to configure my virtual machines?',
    answer: (
      <Answer>
        <P>
          No, configuration is automatic. When you create a virtual machine we install the image you
          chose, give it the CPU, memory and disk of its size, connect it to the network with a
          private address and, unless you turned it off, a public IPv4 address. A username, a
          password and an SSH key pair are generated for it.
        </P>
        <P>
          Once it shows Running, its details page shows the username and password and lets you
          download the private key (privateKey.pem) to sign in.
        </P>
      </Answer>
    ),
  },
  {
    id: 'manage-vms',
    question: 'Where do I manage my virtual machines?',
    answer: (
      <Answer>
        <P>
          In the{' '}
          <Anchor component={Link} to="/virtualMachines" inherit>
            Virtual Machines
          </Anchor>{' '}
          tab. It lists your machines with their status, size, cores, memory and creation date, and
          creates new ones. Choose <B>Details</B> on a machine to start, stop or reset it, open its
          console, download its private key, upgrade it to a larger size, edit its name, team and
          network interfaces, or delete it.
        </P>
        <P>
          What you can do depends on your role in the machine&apos;s team: Viewers can look,
          Operators can also create and operate machines, Managers can also upgrade and delete them.
        </P>
      </Answer>
    ),
  },
  {
    id: 'templates',
    question: 'Can I create a virtual machine from a template?',
    answer: (
      <P>
        Templates are not supported: every new virtual machine starts from one of the operating
        system images offered in its region, at one of the fixed sizes from Micro (2 cores, 4 GB, 80
        GB) to Extra Large (16 cores, 64 GB, 400 GB). If you need machines built to a recipe, with
        software already installed or copied from an existing machine, we build custom virtual
        machines on request: describe what you need with Get In Touch below.
      </P>
    ),
  },
  {
    id: 'custom-configuration',
    question: 'Can I get a custom configuration?',
    answer: (
      <Answer>
        <P>
          You can upgrade any machine to a size with more CPU cores yourself: <B>Upgrade</B> on its
          details page (it takes up to a minute).
        </P>
        <P>
          For anything the sizes do not offer (more memory or disk, extra disks, another operating
          system or a special network setup) contact support with Get In Touch below. Say what you
          need and for which machine or team; we will tell you what we can provide and what it
          costs.
        </P>
      </Answer>
    ),
  },
  {
    id: 'trouble',
    question: 'What should I do when I run into trouble?',
    answer: (
      <Answer>
        <Steps>
          <List.Item>
            Reload the list or page with its Refresh button: a status may have changed meanwhile.
          </List.Item>
          <List.Item>
            Read the message the console shows: it usually says what went wrong.
          </List.Item>
          <List.Item>Search these questions for the problem.</List.Item>
          <List.Item>
            Still stuck? Send us a message with Get In Touch below. Tell us which machine or page,
            what you did, what you expected, what happened instead (the exact error text helps), and
            when.
          </List.Item>
        </Steps>
        <P>We answer by e-mail at the address you sign in with.</P>
      </Answer>
    ),
  },
  {
    id: 'vm-crash',
    question: 'What if my virtual machine crashes or I lose access to it?',
    answer: (
      <Answer>
        <Points>
          <List.Item>
            Open the machine&apos;s details and check its status. Stopped or Shutoff: choose Start.
            Running but not responding: choose Reset, which restarts it at once (anything not saved
            to disk is lost).
          </List.Item>
          <List.Item>
            Locked out by a network or firewall change? While it runs, <B>Console</B> gives you its
            screen and keyboard without the network.
          </List.Item>
          <List.Item>
            Lost the key or the password? Download the private key again, or show the password on
            the details page. If you changed the password inside the machine, the one shown no
            longer works: sign in with the private key instead, or ask support.
          </List.Item>
          <List.Item>
            Status Error, or nothing above helps? Do not delete the machine if you need its data:
            send us its name and when it happened with Get In Touch below.
          </List.Item>
        </Points>
      </Answer>
    ),
  },
];
