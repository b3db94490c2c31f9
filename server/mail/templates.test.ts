import { describe, expect, it } from 'vitest';
import { applicationDecidedMail, publisherApprovedMail } from './templates.ts';

const brand = { companyName: 'Acme Calls', supportEmail: 'help@acme.test' };

describe('publisherApprovedMail', () => {
  it('tells the publisher they can log in, with the login link and the brand footer', () => {
    const mail = publisherApprovedMail(brand, {
      name: 'Jo <Smith>',
      loginUrl: 'https://portal.test/login',
    });
    expect(mail.subject).toBe('Your Acme Calls publisher account is approved');
    expect(mail.text).toContain('Hi Jo <Smith>,');
    expect(mail.text).toContain('Log in: https://portal.test/login');
    expect(mail.text).toContain('Acme Calls. Questions? Write to help@acme.test');
    expect(mail.html).toContain('Hi Jo &lt;Smith&gt;,');
    expect(mail.html).not.toContain('<Smith>');
    expect(mail.html).toContain('href="https://portal.test/login"');
    expect(mail.html).toContain('mailto:help@acme.test');
  });

  it('greets without a name when the name is blank', () => {
    expect(
      publisherApprovedMail(brand, { name: '  ', loginUrl: 'https://p.test/login' }).text,
    ).toContain('\nHi,\n');
  });
});

describe('applicationDecidedMail', () => {
  const base = {
    name: 'Jo',
    offerTitle: 'Auto Insurance\r\nBcc: x@evil.test',
    dashboardUrl: 'https://portal.test/dashboard',
  };

  it('announces an approval with the offer title and a dashboard link', () => {
    const mail = applicationDecidedMail(brand, { ...base, status: 'approved' });
    expect(mail.subject).toBe(
      'Your application for "Auto Insurance Bcc: x@evil.test" was approved',
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain(
      'Your application for the offer "Auto Insurance Bcc: x@evil.test" has been approved.',
    );
    expect(mail.text).toContain('Open your dashboard: https://portal.test/dashboard');
    expect(mail.html).toContain('Your application was approved');
  });

  it('announces a rejection differently', () => {
    const mail = applicationDecidedMail(brand, {
      ...base,
      offerTitle: 'Solar <Leads>',
      status: 'rejected',
    });
    expect(mail.subject).toBe('Your application for "Solar <Leads>" was not approved');
    expect(mail.text).toContain('was not approved');
    expect(mail.text).not.toContain('has been approved');
    expect(mail.html).toContain('&quot;Solar &lt;Leads&gt;&quot;');
    expect(mail.html).toContain('href="https://portal.test/dashboard"');
  });
});
