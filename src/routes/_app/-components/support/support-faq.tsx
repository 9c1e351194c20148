import { Accordion, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { faqTopics } from './faq-topics';

/** The FAQ: one answer open at a time, searched case-insensitively on the question text. */
export function SupportFaq() {
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const needle = search.trim().toLowerCase();
  const topics = faqTopics.filter((topic) => topic.question.toLowerCase().includes(needle));

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} size="h4">
            Frequently asked questions
          </Title>
          <Text size="sm" c="dimmed">
            Answers to what our customers ask most
          </Text>
        </Stack>
        <TextInput
          type="search"
          aria-label="Search questions"
          placeholder="Search questions..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        {topics.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="lg">
            No questions match &ldquo;{search.trim()}&rdquo;
          </Text>
        ) : (
          <Accordion variant="separated" radius="md" value={open} onChange={setOpen}>
            {topics.map((topic) => (
              <Accordion.Item key={topic.id} value={topic.id}>
                <Accordion.Control>
                  <Text fw={500}>{topic.question}</Text>
                </Accordion.Control>
                <Accordion.Panel>{topic.answer}</Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </Stack>
    </Paper>
  );
}
