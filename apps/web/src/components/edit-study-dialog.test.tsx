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

describe('EditStudyDialog: adherence rules', () => {
  it('shows the study’s rules and sends the owner’s changes, reminders off or after N days', async () => {
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
    const group = screen.getByRole('group', { name: 'Adherence' });
    const hours = within(group).getByRole('combobox', { name: 'Hours of wear for a valid day' });
    const risk = within(group).getByRole('combobox', {
      name: 'Days without a sync before “at risk”',
    });
    const reminder = within(group).getByRole('combobox', {
      name: 'Days without a sync before a reminder',
    });
    expect(hours).toHaveTextContent('10');
    expect(risk).toHaveTextContent('2');
    expect(reminder).toHaveTextContent('Off');

    await user.click(hours);
    await user.click(await screen.findByRole('option', { name: '8' }));
    await user.click(risk);
    await user.click(await screen.findByRole('option', { name: '4' }));
    await user.click(reminder);
    await user.click(await screen.findByRole('option', { name: '3' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSubmit.mock.calls[0]?.[1].settings).toEqual({
      ...study.settings,
      validDayMinHours: 8,
      riskNoSyncDays: 4,
      reminderNoSyncDays: 3,
    });
  });

  it('turns reminders off again', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const study = makeStudy({ settings: { ...makeStudy().settings, reminderNoSyncDays: 5 } });
    render(
      <EditStudyDialog
        study={study}
        busy={false}
        onClose={() => {}}
        onSubmit={onSubmit}
        editSettings
      />,
    );
    const reminder = screen.getByRole('combobox', {
      name: 'Days without a sync before a reminder',
    });
    expect(reminder).toHaveTextContent('5');
    await user.click(reminder);
    await user.click(await screen.findByRole('option', { name: 'Off' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSubmit.mock.calls[0]?.[1].settings.reminderNoSyncDays).toBeNull();
  });

  it('is not offered to a collaborator', () => {
    render(
      <EditStudyDialog
        study={makeStudy({ role: 'collab' })}
        busy={false}
        onClose={() => {}}
        onSubmit={() => {}}
        editSettings
      />,
    );
    expect(screen.queryByRole('group', { name: 'Adherence' })).toBeNull();
  });
});
