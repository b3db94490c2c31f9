// The branding query lives in web/lib (layouts and every feature read it); kept here for imports.
export {
  getPublicSettings,
  publicSettingsKey,
  usePublicSettings,
} from '@/lib/public-settings.ts';
