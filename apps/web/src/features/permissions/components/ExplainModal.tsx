import { Badge, Group, List, Modal, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  DEFAULT_ROLE_RULES,
  MODULE_NAMES,
  ROLE_NAMES,
  type ExplanationAnswer,
} from '@portolan/contract';
import { IconArrowRight, IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { explanationQueryOptions } from '../api/member-api';
import { EffectiveBadge, STATUS_LABELS } from './status';

type Step = ExplanationAnswer['steps'][number];

/** One step the explainer looked at, in words: what it is and what it said. */
function stepText(step: Step): { what: string; said: string } {
  switch (step.kind) {
    case 'module':
      return {
        what: `The module ${MODULE_NAMES[step.module]}`,
        said: step.enabled ? 'switched on in this workspace' : 'switched off in this workspace',
      };
    case 'override':
      return {
        what: 'The member’s own override',
        said: step.status === 'INHERIT' ? 'none (Inherit)' : STATUS_LABELS[step.status],
      };
    case 'custom_role':
      return {
        what: `Custom role ${step.role.name}, rule ${step.rule.name}`,
        said: STATUS_LABELS[step.status],
      };
    case 'default_role':
      return {
        what: step.role
          ? `Default role ${ROLE_NAMES[step.role]} (${DEFAULT_ROLE_RULES[step.role].name})`
          : 'No workspace role',
        said: STATUS_LABELS[step.status],
      };
  }
}

/** Whether a step decided the answer (the last one, when it said something explicit). */
const decides = (step: Step, index: number, steps: Step[]) =>
  index === steps.length - 1 &&
  (step.kind === 'module' ? !step.enabled : step.status !== 'INHERIT');

function Explanation({ answer }: { answer: ExplanationAnswer }) {
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <EffectiveBadge status={answer.status} />
        <Text fw={600}>{answer.sentence}</Text>
      </Group>
      <Title order={3} fz="sm">
        What was looked at, in order
      </Title>
      <List
        type="ordered"
        spacing="xs"
        size="sm"
        aria-label="Steps looked at, in order"
        styles={{ itemWrapper: { alignItems: 'flex-start' } }}
      >
        {answer.steps.map((step, index) => {
          const { what, said } = stepText(step);
          const decided = decides(step, index, answer.steps);
          return (
            <List.Item
              key={index}
              icon={
                <ThemeIcon
                  size="sm"
                  radius="xl"
                  variant={decided ? 'filled' : 'light'}
                  color={decided ? 'ocean' : 'gray'}
                  aria-hidden="true"
                >
                  {decided ? <IconCheck size={12} /> : <IconArrowRight size={12} />}
                </ThemeIcon>
              }
            >
              <Text size="sm" component="span">
                {what}: <strong>{said}</strong>
              </Text>
              {decided && (
                <Badge ml="xs" size="sm" variant="light" color="ocean" c="dark.7">
                  Decided here
                </Badge>
              )}
            </List.Item>
          );
        })}
      </List>
      {answer.source.kind === 'inherit' && (
        <Text size="sm" c="dimmed">
          Nothing said Allow or Deny, and a permission left to inherit ends denied.
        </Text>
      )}
    </Stack>
  );
}

/**
 * "Why?": the explainer's answer for one permission of a member (GET …/permissions/explain):
 * the sentence, then each step looked at in order, the deciding one marked.
 */
export function ExplainModal({
  clientId,
  userId,
  permission,
  onClose,
}: {
  clientId: string;
  userId: string;
  /** The permission asked about; null: closed. */
  permission: { key: string; name: string } | null;
  onClose: () => void;
}) {
  const query = useQuery({
    ...explanationQueryOptions(clientId, userId, permission?.key ?? ''),
    enabled: permission !== null,
  });
  return (
    <Modal
      opened={permission !== null}
      onClose={onClose}
      title={permission ? `Why? ${permission.name}` : 'Why?'}
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {query.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label="Loading the explanation">
          <Skeleton height={24} />
          <Skeleton height={16} />
          <Skeleton height={16} />
        </Stack>
      )}
      {query.isError && (
        <QueryRetryAlert title="The explanation could not be loaded" query={query} />
      )}
      {query.data && <Explanation answer={query.data} />}
    </Modal>
  );
}
