import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { QueryRetryAlert } from '../../../lib/retry-alert';
import { billingDetailsQueryOptions } from '../api/billing-details-api';
import { BillingDetailsForm } from '../components/BillingDetailsForm';

/**
 * details (ps-BillingDetails): the company name, address, country and tax ID that every later
 * invoice and credit note prints.
 */
export function BillingDetailsPage() {
  const { orgId = '' } = useParams();
  const details = useQuery(billingDetailsQueryOptions(orgId));

  return (
    <Stack gap="md" component="section" aria-labelledby="billing-details-title">
      <Stack gap={2}>
        <Title order={2} fz="h3" id="billing-details-title">
          Billing details
        </Title>
        <Text size="sm" c="dimmed">
          Printed on every invoice and credit note from now on, for your bookkeeping.
        </Text>
      </Stack>
      <Card withBorder padding="lg">
        {details.isError ? (
          <QueryRetryAlert title="The billing details could not be loaded" query={details} />
        ) : !details.data ? (
          <Skeleton height={320} aria-busy="true" aria-label="Loading the billing details" />
        ) : (
          <BillingDetailsForm orgId={orgId} details={details.data} />
        )}
      </Card>
    </Stack>
  );
}
