import { Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import type { Plan } from '@portolan/contract';
import { IconCheck } from '@tabler/icons-react';
import { formatMoney, perPeriod } from '../format';
import type { PlanAction } from '../plan-actions';

export function priceText(plan: Plan): string {
  if (!plan.self_serve && plan.price === 0) return 'Custom pricing';
  return `${formatMoney(plan.price, plan.currency)} / ${perPeriod(plan.period)}`;
}

export function contactHref(email: string, plan: Plan): string {
  return `mailto:${email}?subject=${encodeURIComponent(`${plan.name} plan`)}`;
}

/** One plan: price, description, selling points and what the caller may do with it. */
export function PlanCard({
  plan,
  action,
  supportEmail,
  chosenAtSignUp = false,
  busy,
  onSubscribe,
  onChange,
}: {
  plan: Plan;
  action: PlanAction;
  supportEmail: string | undefined;
  /** The plan of /register?plan= (spec §4's register plan). */
  chosenAtSignUp?: boolean;
  busy: boolean;
  onSubscribe: (plan: Plan) => void;
  onChange: (plan: Plan) => void;
}) {
  const titleId = `plan-${plan.type}-title`;
  const current = action.kind === 'current' || (action.kind === 'subscribe' && action.current);
  return (
    <Card
      withBorder
      padding="lg"
      component="article"
      aria-labelledby={titleId}
      data-testid={`plan-${plan.type}`}
      style={current ? { borderColor: 'var(--mantine-color-ocean-6)' } : undefined}
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start">
          <Title order={3} fz="h4" id={titleId}>
            {plan.name}
          </Title>
          {current ? (
            <Badge variant="light" color="ocean">
              {action.kind === 'subscribe' ? 'Current plan (trial)' : 'Current plan'}
            </Badge>
          ) : (
            chosenAtSignUp && (
              <Badge variant="light" color="teal" c="dark.7">
                Chosen at sign-up
              </Badge>
            )
          )}
        </Group>
        <Text fz="xl" fw={700}>
          {priceText(plan)}
        </Text>
        {plan.trial_days > 0 && action.kind === 'subscribe' && !action.current && (
          <Text size="sm" c="dimmed">
            {plan.trial_days}-day free trial
          </Text>
        )}
        {plan.description && <Text size="sm">{plan.description}</Text>}
        <List
          spacing={4}
          size="sm"
          icon={<IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden="true" />}
          style={{ flexGrow: 1 }}
        >
          {plan.criteria.map((c) => (
            <List.Item key={c}>{c}</List.Item>
          ))}
        </List>
        <PlanButton
          plan={plan}
          action={action}
          supportEmail={supportEmail}
          busy={busy}
          onSubscribe={onSubscribe}
          onChange={onChange}
        />
      </Stack>
    </Card>
  );
}

/**
 * A plan's button fills its card and wraps its label ("Subscribe to Professional" at four cards
 * a row on a 1440 px screen): never cut off.
 */
const WRAPPING = {
  root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 6 },
  label: { whiteSpace: 'normal', overflow: 'visible', textAlign: 'center', lineHeight: 1.3 },
} as const;

function PlanButton({
  plan,
  action,
  supportEmail,
  busy,
  onSubscribe,
  onChange,
}: Omit<Parameters<typeof PlanCard>[0], never>) {
  switch (action.kind) {
    case 'contact':
      return supportEmail ? (
        <Button
          component="a"
          href={contactHref(supportEmail, plan)}
          variant="light"
          fullWidth
          styles={WRAPPING}
        >
          Email Now
        </Button>
      ) : (
        // The public config (and its support e-mail) is still loading.
        <Text size="sm">Contact us to arrange this plan.</Text>
      );
    case 'current':
      return null;
    case 'subscribe':
      return (
        <Button loading={busy} onClick={() => onSubscribe(plan)} fullWidth styles={WRAPPING}>
          Subscribe to {plan.name}
        </Button>
      );
    case 'upgrade':
      return (
        <Button onClick={() => onChange(plan)} fullWidth styles={WRAPPING}>
          Upgrade to {plan.name}
        </Button>
      );
    case 'downgrade':
      return (
        <Button variant="default" onClick={() => onChange(plan)} fullWidth styles={WRAPPING}>
          Downgrade to {plan.name}
        </Button>
      );
  }
}
