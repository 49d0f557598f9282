import { ActionIcon, Drawer, Indicator, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../lib/auth-store';
import { usePublicConfig } from '../../../lib/config';
import { startedInOwnTask } from '../../../lib/own-task';
import { useAfterLoad } from '../../../lib/use-after-load';
import { releaseNoteStatusQueryOptions } from '../api/status-api';
import { ReleaseNotesFeed } from './ReleaseNotesFeed';

/**
 * The header's release-notes toggle (spec §2, transit profile only): a dot while the newest note
 * is unviewed; it opens the panel, which marks the newest viewed.
 */
export function ReleaseNotesToggle() {
  const transit = usePublicConfig().data?.app_profile === 'transit';
  const token = useAuthStore((s) => s.userToken);
  // The dot waits for the first screen to be drawn: that screen does not need it.
  const afterLoad = useAfterLoad();
  const status = useQuery({
    ...startedInOwnTask(releaseNoteStatusQueryOptions()),
    enabled: transit && Boolean(token) && afterLoad,
  });
  const [opened, panel] = useDisclosure(false);
  if (!transit) return null;
  const unviewed = status.data?.has_unviewed === true;

  return (
    <>
      <Indicator disabled={!unviewed} size={10} offset={7} color="red" withBorder>
        <Tooltip label="Release notes" withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={unviewed ? 'Release notes, new release' : 'Release notes'}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={panel.open}
          >
            <IconSpeakerphone size={22} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Indicator>
      <Drawer
        opened={opened}
        onClose={panel.close}
        title="Release notes"
        position="right"
        size="md"
        closeButtonProps={{ 'aria-label': 'Close release notes' }}
      >
        <ReleaseNotesFeed onNavigate={panel.close} />
      </Drawer>
    </>
  );
}
