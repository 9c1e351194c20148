import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { supportMessages } from '../../src/api/contract/support';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { typeText } from './support/typing';

/** Every FAQ topic of spec section 2, as questions. */
const QUESTIONS = [
  'How do I create a team?',
  'What is the acceptable use policy?',
  'How do I move a virtual machine to another server?',
  'How do I manage users?',
  'How do I reset my password?',
  'Is there a hierarchy between my company, teams and users?',
  'Do I need to configure my virtual machines?',
  'Where do I manage my virtual machines?',
  'Can I create a virtual machine from a template?',
  'Can I get a custom configuration?',
  'What should I do when I run into trouble?',
  'What if my virtual machine crashes or I lose access to it?',
];

const question = (name: string) => screen.getByRole('button', { name });
const openQuestions = () =>
  screen
    .queryAllByRole('button', { expanded: true })
    .map((button) => button.textContent)
    .filter((text) => QUESTIONS.includes(text ?? ''));

/** Records the bodies of `POST /support/sendEmail`; answers with `answer` (success by default). */
function serveSupport(answer = () => ok(null, supportMessages.sent)) {
  const bodies: unknown[] = [];
  server.use(
    http.post(api('support/sendEmail'), async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

describe('Support', { timeout: 15_000 }, () => {
  describe('FAQ', () => {
    it('lists every topic with all answers closed', async () => {
      signIn();
      await renderApp('/support');
      expect(screen.getByRole('heading', { level: 2, name: 'Support' })).toBeInTheDocument();
      for (const text of QUESTIONS) {
        expect(question(text)).toHaveAttribute('aria-expanded', 'false');
      }
    });

    it('opens one answer at a time', async () => {
      signIn();
      const { user } = await renderApp('/support');

      await user.click(question('How do I create a team?'));
      expect(openQuestions()).toEqual(['How do I create a team?']);
      expect(await screen.findByText(/choose Save Permissions/)).toBeVisible();

      await user.click(question('How do I reset my password?'));
      expect(openQuestions()).toEqual(['How do I reset my password?']);

      await user.click(question('How do I reset my password?'));
      expect(openQuestions()).toEqual([]);
    });

    it('gives the acceptable use policy with its seven sections', async () => {
      signIn();
      const { user } = await renderApp('/support');
      await user.click(question('What is the acceptable use policy?'));
      const panel = await screen.findByRole('region', {
        name: 'What is the acceptable use policy?',
      });
      expect(
        within(panel)
          .getAllByRole('heading', { level: 4 })
          .map((heading) => heading.textContent),
      ).toEqual([
        '1. Prohibited content and activities',
        '2. Security violations',
        '3. Network abuse',
        '4. Email and messaging restrictions',
        '5. Legal and professional use',
        '6. Monitoring and enforcement',
        '7. Reporting violations',
      ]);
    });

    it('searches the questions case-insensitively, not the answers', async () => {
      signIn();
      const { user } = await renderApp('/support');
      const search = screen.getByRole('searchbox', { name: 'Search questions' });

      await typeText(user, search, 'VIRTUAL MACHINE');
      expect(
        screen
          .getAllByRole('button')
          .map((button) => button.textContent)
          .filter((text) => QUESTIONS.includes(text ?? '')),
      ).toEqual([
        'How do I move a virtual machine to another server?',
        'Do I need to configure my virtual machines?',
        'Where do I manage my virtual machines?',
        'Can I create a virtual machine from a template?',
        'What if my virtual machine crashes or I lose access to it?',
      ]);

      await user.clear(search);
      // In an answer only (the private key's file name): no question matches.
      await typeText(user, search, 'privateKey.pem');
      expect(screen.getByText('No questions match “privateKey.pem”')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'How do I create a team?' })).toBeNull();
    });
  });

  describe('Still have questions?', () => {
    it('reveals the message form with Get In Touch', async () => {
      signIn();
      const { user } = await renderApp('/support');
      expect(screen.getByRole('heading', { name: 'Still have questions?' })).toBeInTheDocument();
      expect(
        screen.queryByPlaceholderText('Please describe your issue for our support team'),
      ).not.toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Get In Touch' }));

      const textarea = screen.getByPlaceholderText(
        'Please describe your issue for our support team',
      );
      expect(textarea).toHaveFocus();
      expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
    });

    it("sends the message, then reads 'Message sent!' and stays disabled until the text changes", async () => {
      signIn();
      const bodies = serveSupport();
      const { user } = await renderApp('/support');
      await user.click(screen.getByRole('button', { name: 'Get In Touch' }));
      const textarea = screen.getByPlaceholderText(
        'Please describe your issue for our support team',
      );

      await typeText(user, textarea, '  My VM does not boot.  ');
      await user.click(screen.getByRole('button', { name: 'Send Message' }));

      const sent = await screen.findByRole('button', { name: 'Message sent!' });
      expect(sent).toBeDisabled();
      expect(bodies).toEqual([{ message: 'My VM does not boot.' }]);
      expect(screen.getByRole('status')).toHaveTextContent(supportMessages.sent);
      // The text stays, and another click sends nothing.
      expect(textarea).toHaveValue('  My VM does not boot.  ');
      await user.click(sent);
      expect(bodies).toHaveLength(1);

      await typeText(user, textarea, ' Still nothing.');
      const again = screen.getByRole('button', { name: 'Send Message' });
      expect(again).toBeEnabled();
      await user.click(again);
      await screen.findByRole('button', { name: 'Message sent!' });
      expect(bodies).toEqual([
        { message: 'My VM does not boot.' },
        { message: 'My VM does not boot.   Still nothing.' },
      ]);
    });

    it('asks for a message instead of sending an empty one', async () => {
      signIn();
      const bodies = serveSupport();
      const { user } = await renderApp('/support');
      await user.click(screen.getByRole('button', { name: 'Get In Touch' }));
      await typeText(
        user,
        screen.getByPlaceholderText('Please describe your issue for our support team'),
        '   ',
      );
      await user.click(screen.getByRole('button', { name: 'Send Message' }));
      expect(await screen.findByText(supportMessages.required)).toBeInTheDocument();
      expect(bodies).toEqual([]);
    });

    it("shows the server's message on failure and keeps the text for another try", async () => {
      signIn();
      const bodies = serveSupport(() => fail(429, supportMessages.rateLimited));
      const { user } = await renderApp('/support');
      await user.click(screen.getByRole('button', { name: 'Get In Touch' }));
      const textarea = screen.getByPlaceholderText(
        'Please describe your issue for our support team',
      );
      await typeText(user, textarea, 'Please call me back');

      await user.click(screen.getByRole('button', { name: 'Send Message' }));

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Error sending message');
      expect(alert).toHaveTextContent(supportMessages.rateLimited);
      expect(textarea).toHaveValue('Please call me back');
      expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();

      serveSupport();
      await user.click(screen.getByRole('button', { name: 'Send Message' }));
      await screen.findByRole('button', { name: 'Message sent!' });
      await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
      expect(bodies).toHaveLength(1);
    });
  });
});
