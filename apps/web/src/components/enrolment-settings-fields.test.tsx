import { DEFAULT_STUDY_SETTINGS, type StudySettings } from '@research/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { EnrolmentSettingsFields } from './enrolment-settings-fields';

function Harness({ onChange }: { onChange: (value: StudySettings) => void }) {
  const [value, setValue] = useState<StudySettings>({ ...DEFAULT_STUDY_SETTINGS });
  return (
    <EnrolmentSettingsFields
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('EnrolmentSettingsFields', () => {
  it('shows the defaults and hands back each change', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const self = screen.getByRole('switch', { name: 'Anyone with the study code can enroll' });
    const verify = screen.getByRole('switch', { name: 'Require email or phone verification' });
    expect(self).not.toBeChecked();
    expect(verify).toBeChecked();
    expect(self).toHaveAccessibleDescription(/You are not approved for this study/);

    await user.click(self);
    expect(onChange).toHaveBeenLastCalledWith({
      ...DEFAULT_STUDY_SETTINGS,
      allowSelfEnrollment: true,
    });
    await user.click(verify);
    expect(onChange).toHaveBeenLastCalledWith({
      ...DEFAULT_STUDY_SETTINGS,
      allowSelfEnrollment: true,
      requireVerification: false,
    });
    const days = screen.getByRole('spinbutton', { name: 'Data retention (days)' });
    await user.clear(days);
    await user.type(days, '90');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ dataRetentionDays: 90 }));
  });
});
