import { describe, expect, it } from 'vitest';
import { documentTitle, screenTitle } from './document-title.tsx';
import { adminPaths, buyerPaths, paths, publisherPaths } from './routes.ts';

// Issue 16 item 13: every screen has its own tab title, "{Screen} · {Company name}".
describe('the browser tab title', () => {
  it('names each screen, then the company', () => {
    expect(documentTitle(adminPaths.leads, 'Acme Calls')).toBe('Leads · Acme Calls');
    expect(documentTitle(publisherPaths.ios, 'Acme Calls')).toBe('Campaign IOs · Acme Calls');
    expect(documentTitle(buyerPaths.campaigns, 'Acme Calls')).toBe('Campaigns · Acme Calls');
    expect(documentTitle(paths.login, 'Acme Calls')).toBe('Sign in · Acme Calls');
    expect(documentTitle(adminPaths.disputes, 'Acme Calls')).toBe('Disputes · Acme Calls');
  });

  it('gives a detail page its list screen’s name, and ignores a trailing slash', () => {
    expect(screenTitle(adminPaths.publisher('4f1c'))).toBe('Publishers');
    expect(screenTitle(`${adminPaths.offers}/`)).toBe('Offers');
    expect(screenTitle(adminPaths.lead('9a2b'))).toBe('Leads');
    expect(screenTitle(publisherPaths.lead('9a2b'))).toBe('Leads');
  });

  it('uses the company name alone where no screen is named, and a fallback before settings load', () => {
    expect(documentTitle('/', 'Acme Calls')).toBe('Acme Calls');
    expect(documentTitle('/no-such-page', 'Acme Calls')).toBe('Acme Calls');
    expect(documentTitle(adminPaths.payouts, undefined)).toBe('Payouts · Portal');
  });

  it('tells the areas’ screens apart: no two screens of one area share a title', () => {
    for (const area of [adminPaths, publisherPaths, buyerPaths]) {
      const titles = Object.values(area)
        .filter((p): p is string => typeof p === 'string' && !p.includes(':'))
        .map((p) => screenTitle(p));
      expect(titles.every(Boolean)).toBe(true);
      expect(new Set(titles).size).toBe(titles.length);
    }
  });
});
