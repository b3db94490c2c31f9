import { Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { BlocklistPanel } from './blocklist-panel.tsx';
import { FraudQueue } from './fraud-queue.tsx';
import { FraudRulesPanel } from './fraud-rules-panel.tsx';

/**
 * /admin/fraud (issue 32): the flags to review (confirm rejects the calls, clear closes the
 * flags and releases held calls), the blocked callers, and the rules with their thresholds.
 */
export function FraudPage() {
  // `?tab=rules` (Settings links there) or `?tab=blocked` open that tab.
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'queue';
  return (
    <>
      <PageHeader
        title="Fraud"
        description="Calls the fraud rules flagged, callers you block, and the rules' thresholds."
      />
      <Tabs
        value={tab}
        onChange={(v) => setParams(v && v !== 'queue' ? { tab: v } : {})}
        keepMounted={false}
        mt="md"
      >
        <Tabs.List>
          <Tabs.Tab value="queue">Flags</Tabs.Tab>
          <Tabs.Tab value="blocked">Blocked callers</Tabs.Tab>
          <Tabs.Tab value="rules">Rules</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="queue" pt="md">
          <FraudQueue />
        </Tabs.Panel>
        <Tabs.Panel value="blocked" pt="md">
          <BlocklistPanel />
        </Tabs.Panel>
        <Tabs.Panel value="rules" pt="md">
          <FraudRulesPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
