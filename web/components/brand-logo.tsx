import { Image, Skeleton, Text } from '@mantine/core';
import { usePublicSettings } from '@/lib/public-settings.ts';

/** The spec's fallback when no logo has been uploaded. */
export const FALLBACK_LOGO_TEXT = 'MR.LEADS';

type BrandLogoProps = {
  /** Height of the logo image in px. */
  height?: number;
};

/** The logo from settings, or the fallback text; the company name is its accessible name. */
export function BrandLogo({ height = 40 }: BrandLogoProps) {
  const { data, isPending } = usePublicSettings();
  if (isPending) return <Skeleton height={height} width={140} radius="sm" />;
  if (data?.logo_url) {
    return (
      <Image
        src={data.logo_url}
        alt={data.company_name || FALLBACK_LOGO_TEXT}
        h={height}
        w="auto"
        maw={200}
        fit="contain"
      />
    );
  }
  return (
    <Text component="span" fw={800} fz="xl" lh={1} c="blue.7" style={{ letterSpacing: 1 }}>
      {FALLBACK_LOGO_TEXT}
    </Text>
  );
}
