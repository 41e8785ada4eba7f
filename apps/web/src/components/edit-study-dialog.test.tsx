import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeStudy } from '../test/study-fixtures';
import { EditStudyDialog } from './edit-study-dialog';

const KEEP = 'Keep the study’s copy, marked as deleted at the source';
const REMOVE = 'Remove it from the study’s dataset';
const GROUP = 'When a participant deletes data in their Google account';

describe('EditStudyDialog: data deleted at the source', () => {
  it('shows the study’s choice and sends the owner’s change with the other settings', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const study = makeStudy();
    render(
      <EditStudyDialog
        study={study}
        busy={false}
        onClose={() => {}}
        onSubmit={onSubmit}
        editSettings
      />,
    );
    const group = screen.getByRole('radiogroup', { name: GROUP });
    expect(within(group).getByRole('radio', { name: KEEP })).toBeChecked();
    expect(group).toHaveAccessibleDescription(/stays in the study’s dataset/);

    await user.click(within(group).getByRole('radio', { name: REMOVE }));
    expect(group).toHaveAccessibleDescription(/deleted from the study’s storage/);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSubmit).toHaveBeenCalledWith(study, {
      name: study.name,
      description: '',
      duration: study.duration,
      settings: { ...study.settings, removeDataDeletedAtSource: true },
    });
  });

  it('opens on remove for a study that removes, and can go back to keep', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const study = makeStudy({
      settings: { ...makeStudy().settings, removeDataDeletedAtSource: true },
    });
    render(
      <EditStudyDialog
        study={study}
        busy={false}
        onClose={() => {}}
        onSubmit={onSubmit}
        editSettings
      />,
    );
    expect(screen.getByRole('radio', { name: REMOVE })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: KEEP }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSubmit.mock.calls[0]?.[1].settings.removeDataDeletedAtSource).toBe(false);
  });

  it('is not offered to a collaborator, nor where the dialog offers no settings', () => {
    const { unmount } = render(
      <EditStudyDialog
        study={makeStudy({ role: 'collab' })}
        busy={false}
        onClose={() => {}}
        onSubmit={() => {}}
        editSettings
      />,
    );
    expect(screen.queryByRole('radiogroup', { name: GROUP })).toBeNull();
    unmount();
    render(
      <EditStudyDialog study={makeStudy()} busy={false} onClose={() => {}} onSubmit={() => {}} />,
    );
    expect(screen.queryByRole('radiogroup', { name: GROUP })).toBeNull();
  });
});
