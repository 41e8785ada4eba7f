import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoadingIndicator } from './loading-indicator';

describe('LoadingIndicator', () => {
  it("shows 'Loading...' with a 40 px spinner, inline, by default", () => {
    render(<LoadingIndicator />);
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    const spinner = screen.getByRole('progressbar');
    expect(spinner).toHaveStyle({ width: '40px', height: '40px' });
    expect(screen.getByRole('status')).not.toHaveStyle({ position: 'fixed' });
  });

  it('takes a message, a size and a full-screen mode', () => {
    render(<LoadingIndicator message="Authenticating..." size={64} fullScreen />);
    expect(screen.getByText('Authenticating...')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveStyle({ width: '64px' });
    expect(screen.getByRole('status')).toHaveStyle({ position: 'fixed' });
  });
});
