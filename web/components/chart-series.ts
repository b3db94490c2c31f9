/**
 * The series of a daily chart of leads and money: leads as blue bars on the left axis, the money
 * (`name`, shown as `label`) as a teal line on the right axis.
 */
export function leadsAndMoneySeries<N extends string>(name: N, label: string) {
  return [
    { name: 'leads', label: 'Leads', color: 'blue.5', type: 'bar' as const },
    { name, label, color: 'teal.6', type: 'line' as const, yAxisId: 'right' as const },
  ];
}
