import { Alert, Button, Group, Modal, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { GradeChangePreview, Plan } from '@portolan/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { ProblemAlert } from '../../../lib/form-parts';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { toast } from '../../../lib/toasts';
import { gradeChangePreviewQueryOptions, useGradeChange } from '../api/grade-changes-api';
import { formatMoney, RESOURCE_LABELS, RESOURCE_NOUNS } from '../format';

type Resource = keyof GradeChangePreview['resource_comparison'];
const RESOURCES: Resource[] = ['clients', 'internal_users', 'external_users'];

/**
 * An upgrade or a downgrade: the preview's invoice (what is due today, the next payment) and how
 * the organization's workspaces and members compare with the new plan's limits. A resource over
 * the new limit is warned about, and the change waits for "I've understood".
 */
export function PlanChangeModal({
  orgId,
  plan,
  kind,
  onClose,
}: {
  orgId: string;
  /** The plan to change to; null: closed. */
  plan: Plan | null;
  kind: 'upgrade' | 'downgrade';
  onClose: () => void;
}) {
  const title = plan ? `${kind === 'upgrade' ? 'Upgrade' : 'Downgrade'} to ${plan.name}` : '';
  return (
    <Modal
      opened={plan !== null}
      onClose={onClose}
      title={title}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* Remounted per plan: the tick and any error belong to one change. */}
      {plan && <ChangeBody key={plan.type} orgId={orgId} plan={plan} onClose={onClose} />}
    </Modal>
  );
}

function ChangeBody({ orgId, plan, onClose }: { orgId: string; plan: Plan; onClose: () => void }) {
  const preview = useQuery(gradeChangePreviewQueryOptions(orgId, plan.type));
  const change = useGradeChange(orgId);
  const [understood, setUnderstood] = useState(false);

  if (preview.isError) {
    return <QueryRetryAlert title="The change could not be priced" query={preview} />;
  }
  if (!preview.data) {
    return (
      <Stack gap="sm" role="status" aria-label="Pricing the change">
        <Skeleton height={18} />
        <Skeleton height={18} />
        <Skeleton height={18} width="60%" />
      </Stack>
    );
  }

  const { invoice, resource_comparison: comparison } = preview.data;
  const money = (n: number) => formatMoney(n, invoice.currency);
  const warned = RESOURCES.filter((r) => comparison[r].is_warned);
  const mustAcknowledge = warned.length > 0;

  const confirm = () =>
    change.mutate(plan.type, {
      onSuccess: () => {
        toast.success(`Your organization is now on the ${plan.name} plan.`);
        onClose();
      },
    });

  return (
    <Stack gap="md">
      <Table data-testid="plan-change-invoice">
        <Table.Caption>What changes on your invoice</Table.Caption>
        <Table.Tbody>
          {invoice.lines.map((line, i) => (
            <Table.Tr key={i}>
              <Table.Td>{line.description}</Table.Td>
              <Table.Td ta="right">{money(line.amount)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Th scope="row">Subtotal</Table.Th>
            <Table.Td ta="right">{money(invoice.subtotal)}</Table.Td>
          </Table.Tr>
          {invoice.discounts !== 0 && (
            <Table.Tr>
              <Table.Th scope="row">Discounts</Table.Th>
              <Table.Td ta="right">−{money(Math.abs(invoice.discounts))}</Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th scope="row">Applied balance</Table.Th>
            <Table.Td ta="right">
              {invoice.applied_balance ? `−${money(Math.abs(invoice.applied_balance))}` : money(0)}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">Total due today</Table.Th>
            <Table.Td ta="right" fw={700}>
              {money(invoice.total)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {invoice.next_payment_date && (
        <Text size="sm">Next payment date: {formatDate(invoice.next_payment_date)}</Text>
      )}

      <Table withTableBorder data-testid="plan-change-resources">
        <Table.Caption>Your organization against the {plan.name} plan</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Resource</Table.Th>
            <Table.Th scope="col">You have</Table.Th>
            <Table.Th scope="col">{plan.name} allows</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {RESOURCES.map((r) => (
            <Table.Tr key={r}>
              <Table.Th scope="row">{RESOURCE_LABELS[r]}</Table.Th>
              <Table.Td>{comparison[r].current}</Table.Td>
              <Table.Td c={comparison[r].is_warned ? 'orange.9' : undefined}>
                {comparison[r].intent ?? 'Unlimited'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>

      {warned.map((r) => (
        <Alert
          key={r}
          color="orange"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          data-testid={`plan-change-warning-${r}`}
        >
          You have {comparison[r].current} {RESOURCE_NOUNS[r]}; the {plan.name} plan allows{' '}
          {comparison[r].intent}. Nothing is removed, but you cannot add {RESOURCE_NOUNS[r]} until
          you are under the limit.
        </Alert>
      ))}
      {mustAcknowledge && (
        // A native checkbox: Mantine's is in another page's chunk, and sharing it would move it
        // into the chunk every first load preloads.
        <Group component="label" gap="xs" fz="sm" fw={500} style={{ cursor: 'pointer' }}>
          <input
            type="checkbox"
            checked={understood}
            onChange={(e) => setUnderstood(e.currentTarget.checked)}
            style={{ width: 18, height: 18, accentColor: 'var(--mantine-primary-color-filled)' }}
          />
          I&apos;ve understood
        </Group>
      )}

      <ProblemAlert>{change.isError ? errorMessage(change.error) : null}</ProblemAlert>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          onClick={confirm}
          loading={change.isPending}
          disabled={mustAcknowledge && !understood}
        >
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}
