import { Box, Center, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { PageTitle } from '@/components/page-header.tsx';

type AuthPageLayoutProps = {
  /** The screen's heading, e.g. "Create a publisher account". */
  title: string;
  /** One line under the heading. */
  subtitle?: string;
  /** Wider card for the long publisher form. */
  wide?: boolean;
  children: ReactNode;
};

/** The frame of the public screens: the logo from settings, a heading and the form card. */
export function AuthPageLayout({ title, subtitle, wide = false, children }: AuthPageLayoutProps) {
  return (
    <Box component="main" mih="100vh" bg="gray.0" py={{ base: 'md', sm: 48 }} px="md">
      <Center>
        <Stack w="100%" maw={wide ? 640 : 440} gap="lg">
          <Center>
            <BrandLogo height={48} />
          </Center>
          <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }}>
            <PageTitle title={title} description={subtitle} fz={{ base: 22, sm: 26 }} mb="lg" />
            {children}
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
