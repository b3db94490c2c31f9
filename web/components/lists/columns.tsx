import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Stack,
  type StyleProp,
  Text,
  Tooltip,
} from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format.ts';
import { fromTablet } from '../paged-table.tsx';
import { PersonCell } from '../person-cell.tsx';
import { StatusBadge, type StatusSubject } from '../status-badge.tsx';

/** What a list sets on its shared columns besides their contents. */
type ColumnOptions = {
  sortable?: boolean;
  noWrap?: boolean;
  width?: number;
  textAlign?: 'left' | 'center' | 'right';
  visibleMediaQuery?: DataTableColumn<unknown>['visibleMediaQuery'];
};

/**
 * A day column of a list, e.g. "Signed up", on one line: `formatDate` unless `format` says
 * otherwise (`formatDay` for a calendar day, `formatDateTime` with the time); with `link`, the
 * date leads to the row's record (a lead's date to the lead).
 */
export function dateColumn<T>(
  accessor: string,
  title: string,
  value: (record: T) => string | null,
  {
    format = formatDate,
    link,
    ...options
  }: ColumnOptions & { format?: (v: string | null) => string; link?: (record: T) => string } = {},
): DataTableColumn<T> {
  const render = (r: T) =>
    link ? <RowLink to={link(r)}>{format(value(r))}</RowLink> : format(value(r));
  return { accessor, title, noWrap: true, ...options, render };
}

/** A column of a person (a buyer, a publisher): the name, or what stands for it, over the e-mail. */
export function personColumn<T>(
  accessor: string,
  title: string,
  person: (record: T) => { name: ReactNode; email: string },
  maw?: StyleProp<number>,
): DataTableColumn<T> {
  return { accessor, title, render: (r) => <PersonCell {...person(r)} maw={maw} /> };
}

/** The "Publisher" column of a row about a publisher: the name over the e-mail. */
export function publisherColumn<
  T extends { publisher_name: string | null; publisher_email: string },
>(maw?: StyleProp<number>): DataTableColumn<T> {
  return personColumn<T>(
    'publisher_name',
    'Publisher',
    (r) => ({ name: r.publisher_name, email: r.publisher_email }),
    maw,
  );
}

/** The sortable "Status" column of a record with a `status`: its badge, worded for the subject. */
export function statusColumn<T extends { status: string }>(
  subject: StatusSubject,
  options: ColumnOptions = {},
): DataTableColumn<T> {
  return {
    accessor: 'status',
    title: 'Status',
    sortable: true,
    noWrap: true,
    ...options,
    render: (r) => <StatusBadge status={r.status} subject={subject} />,
  };
}

/** The "Status" and "Signed up" columns of an account list (publishers, buyers). */
export function accountColumns<T extends { status: string; created_at: string }>(
  subject: StatusSubject,
): DataTableColumn<T>[] {
  return [
    statusColumn<T>(subject, { width: 120 }),
    dateColumn<T>('created_at', 'Signed up', (r) => r.created_at, {
      sortable: true,
      visibleMediaQuery: fromTablet,
    }),
  ];
}

type TitleCellProps = {
  title: ReactNode;
  sub: string | null;
  clamp?: number;
  miw: number;
  maw?: StyleProp<number>;
  children?: ReactNode;
};

/** A list's sortable name column, each row's cell a `TitleCell`. */
export function titleColumn<T>(
  accessor: string,
  title: string,
  cell: (record: T) => TitleCellProps,
): DataTableColumn<T> {
  return { accessor, title, sortable: true, render: (r) => <TitleCell {...cell(r)} /> };
}

/**
 * A record's name cell: the name in bold over a dimmed line about it (none when empty), cut to
 * `clamp` lines when given; `children` go below.
 */
export function TitleCell({ title, sub, clamp, miw, maw, children }: TitleCellProps) {
  return (
    <Stack gap={0} miw={miw} maw={maw}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {sub ? (
        <Text size="xs" c="dimmed" lineClamp={clamp}>
          {sub}
        </Text>
      ) : null}
      {children}
    </Stack>
  );
}

/**
 * The "Publisher" and "Offer" columns of a row about a publisher's calls or place on an offer;
 * `personMaw` narrows the publisher's cell where the row has many other columns.
 */
export function publisherAndOfferColumns<
  T extends { publisher_name: string | null; publisher_email: string; offer_title: string },
>(personMaw?: StyleProp<number>): DataTableColumn<T>[] {
  return [publisherColumn<T>(personMaw), { accessor: 'offer_title', title: 'Offer' }];
}

/** A link in a row (to the row's record); the click does not also reach the row's own click. */
export function RowLink({ to, fw, children }: { to: string; fw?: number; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} fw={fw} size="sm" onClick={(e) => e.stopPropagation()}>
      {children}
    </Anchor>
  );
}

/** The "Actions" column, at the right of a row. */
export function actionsColumn<T>(
  render: (record: T) => ReactNode,
  options: ColumnOptions = {},
): DataTableColumn<T> {
  return { accessor: 'actions', title: 'Actions', textAlign: 'right', ...options, render };
}

/** A row's buttons side by side at the right of its actions cell. */
export function RowActions({ gap = 6, children }: { gap?: number; children: ReactNode }) {
  return (
    <Group gap={gap} justify="flex-end" wrap="nowrap">
      {children}
    </Group>
  );
}

/**
 * A small light button in a row that opens the row's record (Review, Open); the click does not
 * also reach the row's own click.
 */
export function RowButton({
  icon,
  label,
  onClick,
  children,
}: {
  icon: ReactNode;
  /** The button's accessible name, naming the row. */
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={icon}
      onClick={(e: MouseEvent) => {
        e.stopPropagation();
        onClick();
      }}
      aria-label={label}
    >
      {children}
    </Button>
  );
}

/** One icon button of a row: its tooltip, icon, accessible name naming the row, and colour. */
export type IconAction = {
  tip: string;
  icon: ReactNode;
  label: string;
  color?: string;
  onClick: () => void;
};

/** A row's icon buttons (Edit, Delete…), each with its tooltip, from a table of actions. */
export function IconActions({ actions }: { actions: IconAction[] }) {
  return (
    <RowActions gap={4}>
      {actions.map((a) => (
        <Tooltip key={a.tip} label={a.tip}>
          <ActionIcon variant="subtle" color={a.color} onClick={a.onClick} aria-label={a.label}>
            {a.icon}
          </ActionIcon>
        </Tooltip>
      ))}
    </RowActions>
  );
}
