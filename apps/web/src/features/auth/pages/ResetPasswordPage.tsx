import { Anchor, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { AuthHeading } from '../../../lib/auth-heading';
import { FormAlert } from '../components/FormAlert';
import { NewPasswordForm } from '../components/NewPasswordForm';

/** /reset-password?token=…: the last step of a reset, reached from a link. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');

  return (
    <>
      <AuthHeading title="Choose a new password">
        Pick a password you do not use anywhere else.
      </AuthHeading>
      {token ? (
        // The last step of a reset, like the third step of /forgot-password: no "back" link.
        <NewPasswordForm token={token} />
      ) : (
        <>
          <FormAlert>
            This link is incomplete: it has no reset token. Open the link from the e-mail again, or{' '}
            <Anchor component={Link} to="/forgot-password" inherit fw={600}>
              start a new password reset
            </Anchor>
            .
          </FormAlert>
          <Text ta="center" size="sm" mt="lg">
            <Anchor component={Link} to="/login" fw={600}>
              Back to sign in
            </Anchor>
          </Text>
        </>
      )}
    </>
  );
}
