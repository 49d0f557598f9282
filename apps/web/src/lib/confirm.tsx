import { Radio, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useEffect, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  /** The content: a sentence, or any element. */
  content: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Paints the confirm button red, for destructive actions. */
  danger?: boolean;
}

/**
 * The generic modal (spec §2 Layout): shows content and action buttons and resolves true when
 * the user confirms, false when they cancel or close it.
 */
export function confirmModal({
  title,
  content,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  danger = false,
}: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: boolean) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    modals.openConfirmModal({
      title,
      centered: true,
      children: typeof content === 'string' ? <Text size="sm">{content}</Text> : content,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: danger ? { color: 'red.9' } : undefined,
      closeButtonProps: { 'aria-label': 'Close dialog' },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}

export interface ChoiceOption<T extends string> {
  value: T;
  label: string;
  description?: string;
}

export interface ChooseOptions<T extends string> extends Omit<ConfirmOptions, 'content'> {
  /** What the choice is about, above the options. */
  content: ReactNode;
  /** The question, read out as the options' group label. */
  question: string;
  choices: readonly ChoiceOption<T>[];
}

function ChoiceBody<T extends string>({
  content,
  question,
  choices,
  onChange,
  bindMissing,
}: Pick<ChooseOptions<T>, 'content' | 'question' | 'choices'> & {
  onChange: (value: T) => void;
  /** Receives the function that says a choice is missing. */
  bindMissing: (show: () => void) => void;
}) {
  const [value, setValue] = useState<T | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => bindMissing(() => setMissing(true)), [bindMissing]);
  return (
    <Stack gap="md">
      {typeof content === 'string' ? <Text size="sm">{content}</Text> : content}
      <Radio.Group
        label={question}
        value={value}
        error={missing && value === null ? 'Choose one of the options.' : undefined}
        onChange={(next) => {
          setValue(next as T);
          onChange(next as T);
        }}
        required
      >
        <Stack gap="sm" mt="xs">
          {choices.map((choice) => (
            <Radio
              key={choice.value}
              value={choice.value}
              label={choice.label}
              description={choice.description}
            />
          ))}
        </Stack>
      </Radio.Group>
    </Stack>
  );
}

/**
 * The generic modal with a required choice among options: resolves the option chosen when the
 * user confirms, null when they cancel or close it. Confirming before choosing keeps it open and
 * says so.
 */
export function chooseModal<T extends string>({
  title,
  content,
  question,
  choices,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  danger = false,
}: ChooseOptions<T>): Promise<T | null> {
  return new Promise((resolve) => {
    let chosen: T | null = null;
    let showMissing = () => {};
    let settled = false;
    const settle = (value: T | null) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const id = modals.openConfirmModal({
      title,
      centered: true,
      closeOnConfirm: false,
      children: (
        <ChoiceBody
          content={content}
          question={question}
          choices={choices}
          onChange={(value) => {
            chosen = value;
          }}
          bindMissing={(show) => {
            showMissing = show;
          }}
        />
      ),
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: danger ? { color: 'red.9' } : undefined,
      closeButtonProps: { 'aria-label': 'Close dialog' },
      onConfirm: () => {
        if (chosen === null) {
          showMissing();
          return;
        }
        settle(chosen);
        modals.close(id);
      },
      onCancel: () => settle(null),
      onClose: () => settle(null),
    });
  });
}
