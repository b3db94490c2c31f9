// The account screens a signed-in user opens outside the areas (password, two-factor sign-in),
// loaded as one chunk: one lazy module for all four keeps the chunking of what /login downloads
// as it was (each new lazy module moved shared code out of /login's entry chunk, +1 KB gzip).
export { ChangePasswordPage } from './change-password-page.tsx';
export { TwoFactorPage } from './two-factor-page.tsx';
export { TwoFactorSetupPage } from './two-factor-setup-page.tsx';
export { TwoFactorVerifyPage } from './two-factor-verify-page.tsx';
