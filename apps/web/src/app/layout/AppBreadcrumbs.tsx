import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link, useMatches } from 'react-router';
import { dashboardPath } from '../../lib/auth-store';
import { handleOf } from '../../lib/route-handle';

/** Breadcrumbs built from the labels (`handle.crumb`) of the matched routes. */
export function AppBreadcrumbs() {
  const matches = useMatches();
  const crumbs = matches
    .map((match, index) => ({ match, index, label: handleOf(match).crumb }))
    .filter((c): c is typeof c & { label: string } => Boolean(c.label));

  if (crumbs.length < 2) return null;

  return (
    <nav aria-label="Breadcrumb">
      <Breadcrumbs separator="›" mb="lg" fz="sm">
        {crumbs.map(({ match, label }, i) => {
          const last = i === crumbs.length - 1;
          if (last) {
            return (
              <Text key={match.id} size="sm" fw={600} aria-current="page">
                {label}
              </Text>
            );
          }
          const to = i === 0 ? dashboardPath() : match.pathname;
          return (
            <Anchor key={match.id} component={Link} to={to} size="sm">
              {label}
            </Anchor>
          );
        })}
      </Breadcrumbs>
    </nav>
  );
}
