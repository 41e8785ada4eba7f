import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ResponsiveColumn, ResponsiveTable } from './responsive-table';

interface Person {
  id: string;
  name: string;
  phone: string;
  status: string;
}

const PEOPLE: Person[] = [
  { id: '1', name: 'Ada Byron', phone: '(650) 555-0123', status: 'inactive' },
  { id: '2', name: 'Grace Hopper', phone: '(212) 555-0142', status: 'active' },
];

const COLUMNS: readonly ResponsiveColumn<Person, 'name' | 'phone'>[] = [
  { label: 'Name', sortKey: 'name', card: 'title', render: (p) => p.name },
  { label: 'Phone', sortKey: 'phone', render: (p) => p.phone },
  { label: 'Status', card: 'badge', render: (p) => p.status },
  {
    label: 'Actions',
    card: 'actions',
    render: (p) => <button type="button">{`Edit ${p.name}`}</button>,
  },
];

/** The screen's width as media queries see it. */
function screenWidth(px: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    return {
      matches: max ? px <= Number(max[1]) : false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      onchange: null,
      dispatchEvent: () => false,
    };
  });
}

afterEach(() => vi.unstubAllGlobals());

function renderList(onSort = vi.fn(), onPageChange = vi.fn()) {
  render(
    <ResponsiveTable
      label="People"
      columns={COLUMNS}
      rows={PEOPLE}
      rowKey={(p) => p.id}
      sort={{ by: 'name', order: 'asc', onSort }}
      pagination={{
        count: 25,
        page: 0,
        rowsPerPage: 10,
        rowsPerPageOptions: [10, 25],
        onPageChange,
      }}
    />,
  );
  return { onSort, onPageChange };
}

describe('ResponsiveTable', () => {
  it('is a table with sortable headers on a wide screen', async () => {
    screenWidth(1280);
    const { onSort } = renderList();
    const table = screen.getByRole('table', { name: 'People' });
    const row = within(table).getByText('Ada Byron').closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('(650) 555-0123');
    expect(row).toHaveTextContent('inactive');
    await userEvent.click(within(table).getByRole('button', { name: 'Phone' }));
    expect(onSort).toHaveBeenCalledWith('phone');
  });

  it('on a phone shows one card per row with every value labelled, and a pager', async () => {
    screenWidth(390);
    const { onSort, onPageChange } = renderList();
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'People' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const ada = cards[0] as HTMLElement;
    expect(within(ada).getByText('Ada Byron')).toBeInTheDocument();
    expect(within(ada).getByText('inactive')).toBeInTheDocument();
    // A labelled line: the column's header, then its value.
    const phone = within(ada).getByText('(650) 555-0123');
    expect(phone.tagName).toBe('DD');
    expect(phone.previousElementSibling).toHaveTextContent('Phone');
    expect(within(ada).getByRole('button', { name: 'Edit Ada Byron' })).toBeInTheDocument();

    // No headers to click: a select and an order button sort the cards.
    await userEvent.click(screen.getByRole('button', { name: /Reverse the order of Name/ }));
    expect(onSort).toHaveBeenCalledWith('name');
    // The pager reaches the rows past the first page.
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(onPageChange).toHaveBeenCalledWith(1);
  });
});
