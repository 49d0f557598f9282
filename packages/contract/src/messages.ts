/** User-facing texts quoted word for word from the specification (§2, §8). */
export const Messages = {
  serverError:
    'Oops! There is something wrong with the application. Please try again or reload your browser.',
  networkError:
    'Something is temporarily wrong with your network connection. Please make sure you are connected to the internet and reload your browser.',
  billingExpired:
    "Your organization's subscription has been expired. Please contact to your Owner or Admin to get more information.",
  newerVersion:
    'There is a newer version. Please reload your application to ensure your best experience.',
  notificationLoadFailed: 'Get notification has problem, please try again.',
  invitationVerifyFailed:
    'Oops! There may be a problem with the verification. Please try reloading this page. Thank you.',
  subscriptionsFailed: 'Cannot get subscriptions. Please try again later.',
  invitationAcceptedWorkspace: 'Your account has been activated for the new workspace.',
  invitationAcceptedOrganization: 'Your account has been activated for the new organization.',
  notificationsEmpty: 'And there is no message at all. Thank you.',
  accessDeniedTitle: 'Access Denied!',
} as const;
