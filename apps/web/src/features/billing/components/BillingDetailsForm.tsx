import { Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  isCountryCode,
  taxIdProblem,
  type BillingDetails,
  type CountryCode,
} from '@portolan/contract';
import { useMemo, useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { ProblemAlert, SaveChangesButton } from '../../../lib/form-parts';
import { applyFieldErrors, resetToSaved } from '../../../lib/forms';
import { isStepUpRequired } from '../../../lib/step-up';
import { toast } from '../../../lib/toasts';
import { useSaveBillingDetails } from '../api/billing-details-api';
import { countryOptions, taxIdHint } from './countries';

export const BillingDetailsMessages = {
  saved: 'The billing details are saved. Invoices from now on carry them.',
  companyName: 'Give the company name.',
  address: 'Give the address.',
  country: 'Choose a country.',
  unavailable: 'The billing details could not be saved right now. Please try again in a moment.',
} as const;

interface Values {
  company_name: string;
  address: string;
  country: string | null;
  tax_id: string;
}

const valuesOf = (d: BillingDetails): Values => ({
  company_name: d.company_name,
  address: d.address,
  country: d.country,
  tax_id: d.tax_id ?? '',
});

/**
 * The organization's billing details (issue 22 item 6): they print on every later invoice and
 * credit note. The tax ID is checked for the chosen country as the server checks it; the
 * server's answers per field show at the field.
 */
export function BillingDetailsForm({ orgId, details }: { orgId: string; details: BillingDetails }) {
  const save = useSaveBillingDetails(orgId);
  const [problem, setProblem] = useState<string | null>(null);
  const countries = useMemo(() => countryOptions(), []);
  const form = useForm<Values>({
    initialValues: valuesOf(details),
    // The tax ID is checked as soon as it is typed out, not only on saving.
    validateInputOnBlur: ['tax_id'],
    validate: {
      company_name: (v) => (v.trim() ? null : BillingDetailsMessages.companyName),
      address: (v) => (v.trim() ? null : BillingDetailsMessages.address),
      country: (v) => (v && isCountryCode(v) ? null : BillingDetailsMessages.country),
      tax_id: (v, values) =>
        v.trim() && values.country && isCountryCode(values.country)
          ? taxIdProblem(values.country, v)
          : null,
    },
  });
  const country = form.getValues().country;
  const hint = taxIdHint(country && isCountryCode(country) ? (country as CountryCode) : null);

  const onSubmit = form.onSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync({
        company_name: values.company_name.trim(),
        address: values.address.trim(),
        country: values.country as CountryCode,
        tax_id: values.tax_id.trim() || null,
      });
      resetToSaved(form, valuesOf(saved));
      toast.success(BillingDetailsMessages.saved);
    } catch (error) {
      if (isStepUpRequired(error)) return;
      if (applyFieldErrors(form, error)) return;
      setProblem(
        error instanceof ApiError && (error.status >= 500 || error.status === 0)
          ? BillingDetailsMessages.unavailable
          : errorMessage(error),
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Billing details">
      <Stack gap="md" maw={560}>
        <ProblemAlert>{problem}</ProblemAlert>
        <TextInput
          label="Company name"
          required
          maxLength={200}
          autoComplete="organization"
          {...form.getInputProps('company_name')}
        />
        <Textarea
          withAsterisk={false}
          label="Address"
          description="Street, postcode and city, on as many lines as the invoice should show."
          required
          rows={4}
          maxLength={500}
          autoComplete="street-address"
          {...form.getInputProps('address')}
        />
        <Select
          withAsterisk={false}
          label="Country"
          placeholder="Choose a country"
          required
          searchable
          data={countries}
          allowDeselect={false}
          nothingFoundMessage="No country has that name"
          {...form.getInputProps('country')}
        />
        <TextInput
          label={hint.label}
          description={
            hint.example
              ? `Optional. Written like ${hint.example}.`
              : 'Optional. Letters and digits, as your tax office gave it.'
          }
          maxLength={40}
          {...form.getInputProps('tax_id')}
        />
        {details.updated && (
          <Text size="xs" c="dimmed">
            Last saved {formatDate(details.updated)}.
          </Text>
        )}
        <SaveChangesButton form={form} />
      </Stack>
    </form>
  );
}
