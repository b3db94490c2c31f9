/**
 * The raw material of the demo: people, companies, places, offers and campaigns that look like
 * a real pay-per-call network. E-mail domains end in `.example` (reserved, never delivered) and
 * phone numbers use the 555-01xx block set aside for fiction.
 */

export const FIRST_NAMES = [
  'Dana',
  'Marcus',
  'Priya',
  'Tyler',
  'Keisha',
  'Brandon',
  'Elena',
  'Jamal',
  'Courtney',
  'Hector',
  'Megan',
  'Andre',
  'Sofia',
  'Derek',
  'Tanya',
  'Luis',
  'Rachel',
  'Omar',
  'Brittany',
  'Caleb',
  'Monique',
  'Ryan',
  'Jasmine',
  'Victor',
  'Heather',
  'Darnell',
  'Lauren',
  'Mateo',
  'Kristen',
  'Samuel',
  'Alicia',
  'Trevor',
  'Nadia',
  'Grant',
  'Yolanda',
  'Ethan',
  'Carmen',
  'Wesley',
  'Imani',
  'Jordan',
] as const;

export const LAST_NAMES = [
  'Whitfield',
  'Reyes',
  'Raman',
  'Brooks',
  'Washington',
  'Kowalski',
  'Marquez',
  'Henderson',
  'Sullivan',
  'Delgado',
  'Fitzgerald',
  'Okafor',
  'Lindqvist',
  'Patel',
  'Harrington',
  'Castillo',
  'Nguyen',
  'Abernathy',
  'Morales',
  'Chambers',
  'Bishop',
  'Greene',
  'Vasquez',
  'Thornton',
  'McAllister',
  'Ibrahim',
  'Donovan',
  'Sinclair',
  'Ramirez',
  'Holloway',
] as const;

const COMPANY_STEMS = [
  'Bright Path',
  'Summit',
  'Blue Ridge',
  'Northstar',
  'Harbor Point',
  'Keystone',
  'Lakeside',
  'Redwood',
  'Ironclad',
  'Silver Oak',
  'Cardinal',
  'Pinnacle',
  'Evergreen',
  'Granite State',
  'Meridian',
  'Copperline',
  'Beacon',
  'Liberty Bell',
  'Prairie Wind',
  'Tidewater',
  'Golden Gate',
  'Bluebonnet',
  'Magnolia',
  'Crescent',
  'Sawtooth',
] as const;

const COMPANY_KINDS = [
  'Media',
  'Call Partners',
  'Digital',
  'Marketing Group',
  'Performance',
  'Lead Solutions',
  'Connect',
  'Communications',
  'Interactive',
  'Response',
] as const;

const COMPANY_SUFFIXES = ['LLC', 'LLC', 'Inc.', 'LLC', 'Co.', 'Group LLC'] as const;

/** Every company name the demo can hand out, in a fixed order (shuffled by the seeder). */
export const COMPANY_NAMES: readonly string[] = COMPANY_STEMS.flatMap((stem, i) =>
  COMPANY_KINDS.map(
    (kind, j) => `${stem} ${kind} ${COMPANY_SUFFIXES[(i + j) % COMPANY_SUFFIXES.length]}`,
  ),
);

/** A web-ish domain for a company: 'Bright Path Media LLC' → 'brightpathmedia.example'. */
export function companyDomain(company: string): string {
  const words = company
    .replace(/\b(LLC|Inc\.|Co\.|Group)\b/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');
  return `${words}.example`;
}

/** Cities with their state, ZIP and area code, so addresses and phones agree. */
export const PLACES = [
  { city: 'Denver', state: 'CO', zip: '80202', area: '303' },
  { city: 'Austin', state: 'TX', zip: '78701', area: '512' },
  { city: 'Tampa', state: 'FL', zip: '33602', area: '813' },
  { city: 'Phoenix', state: 'AZ', zip: '85004', area: '602' },
  { city: 'Charlotte', state: 'NC', zip: '28202', area: '704' },
  { city: 'Columbus', state: 'OH', zip: '43215', area: '614' },
  { city: 'Nashville', state: 'TN', zip: '37203', area: '615' },
  { city: 'Atlanta', state: 'GA', zip: '30303', area: '404' },
  { city: 'Salt Lake City', state: 'UT', zip: '84101', area: '801' },
  { city: 'Boise', state: 'ID', zip: '83702', area: '208' },
  { city: 'Miami', state: 'FL', zip: '33131', area: '305' },
  { city: 'Scottsdale', state: 'AZ', zip: '85251', area: '480' },
  { city: 'Las Vegas', state: 'NV', zip: '89101', area: '702' },
  { city: 'Kansas City', state: 'MO', zip: '64105', area: '816' },
  { city: 'Raleigh', state: 'NC', zip: '27601', area: '919' },
  { city: 'San Diego', state: 'CA', zip: '92101', area: '619' },
  { city: 'Omaha', state: 'NE', zip: '68102', area: '402' },
  { city: 'Richmond', state: 'VA', zip: '23219', area: '804' },
  { city: 'Orlando', state: 'FL', zip: '32801', area: '407' },
  { city: 'Dallas', state: 'TX', zip: '75201', area: '214' },
] as const;

export const STREETS = [
  'Market St',
  'Main St',
  'Commerce Blvd',
  'Peachtree St NE',
  'Broadway',
  'Congress Ave',
  'Elm St',
  'Riverside Dr',
  'Lincoln Ave',
  'Park Pl',
  'Corporate Center Dr',
  'Washington Blvd',
] as const;

/** A vertical's offer: payout in cents, the call-length buffer and typical call length in minutes. */
export type OfferSpec = {
  title: string;
  vertical: string;
  payoutCents: number;
  status: 'active' | 'inactive';
  bufferMinutes: number;
  typicalMinutes: number;
  /** How many calls this offer draws compared with the others. */
  volume: number;
  script: string;
};

export const OFFERS: readonly OfferSpec[] = [
  {
    title: 'Final Expense Inbound - Seniors 50-85',
    vertical: 'Final Expense',
    payoutCents: 4500,
    status: 'active',
    bufferMinutes: 2,
    typicalMinutes: 14,
    volume: 10,
    script:
      'Greeting: "Thank you for calling the Senior Benefits Helpline, this call may be recorded." ' +
      'Qualify: caller is 50-85, not in a nursing home, has an active checking account or Direct Express card. ' +
      'Warm-transfer to a licensed agent and stay on until the agent confirms. ' +
      'Never say "free", "government program" or promise a rate.',
  },
  {
    title: 'Final Expense Spanish Transfers',
    vertical: 'Final Expense',
    payoutCents: 3850,
    status: 'active',
    bufferMinutes: 2,
    typicalMinutes: 12,
    volume: 4,
    script:
      'Spanish-speaking callers only. Greet in Spanish, confirm age 50-80 and US residency, then ' +
      'transfer to the bilingual queue. No mention of Medicaid or government benefits.',
  },
  {
    title: 'Medicare Advantage AEP Inbound',
    vertical: 'Medicare',
    payoutCents: 3200,
    status: 'active',
    bufferMinutes: 3,
    typicalMinutes: 18,
    volume: 9,
    script:
      'Read the TPMO disclaimer word for word within the first minute. Caller must have Medicare ' +
      'Parts A and B and not be enrolled in Medicaid-only coverage. Do not use CMS logos or imply ' +
      'you represent Medicare. Transfer to the licensed agent line.',
  },
  {
    title: 'Medicare Supplement Warm Transfers',
    vertical: 'Medicare',
    payoutCents: 2750,
    status: 'inactive',
    bufferMinutes: 2,
    typicalMinutes: 15,
    volume: 3,
    script:
      'Paused for the season. Caller must be 64.5+ and currently on Original Medicare. Read the ' +
      'TPMO disclaimer, confirm ZIP code, transfer.',
  },
  {
    title: 'Auto Insurance - Currently Insured Drivers',
    vertical: 'Auto Insurance',
    payoutCents: 1800,
    status: 'active',
    bufferMinutes: 1,
    typicalMinutes: 9,
    volume: 12,
    script:
      'Confirm the caller has active auto coverage, a valid license and no more than 2 accidents in ' +
      '3 years. Collect ZIP and number of vehicles, then transfer.',
  },
  {
    title: 'Auto Insurance Non-Standard / SR-22',
    vertical: 'Auto Insurance',
    payoutCents: 1400,
    status: 'active',
    bufferMinutes: 1,
    typicalMinutes: 8,
    volume: 6,
    script:
      'For drivers who need an SR-22 or were recently cancelled. Do not promise approval. Collect ' +
      'state and filing requirement, then transfer.',
  },
  {
    title: 'Home Warranty Calls',
    vertical: 'Home Services',
    payoutCents: 2200,
    status: 'active',
    bufferMinutes: 2,
    typicalMinutes: 10,
    volume: 5,
    script:
      'Homeowners only (no renters). Confirm the home is under 80 years old and not a mobile home. ' +
      'Transfer to the enrollment team.',
  },
  {
    title: 'HVAC Repair & Replacement',
    vertical: 'Home Services',
    payoutCents: 3500,
    status: 'active',
    bufferMinutes: 1,
    typicalMinutes: 7,
    volume: 5,
    script:
      'Caller needs repair or replacement of heating or cooling within 30 days. Confirm homeowner ' +
      'and ZIP in the service area list, then transfer to dispatch.',
  },
  {
    title: 'Roofing - Storm Damage Inspections',
    vertical: 'Home Services',
    payoutCents: 5500,
    status: 'inactive',
    bufferMinutes: 2,
    typicalMinutes: 9,
    volume: 2,
    script:
      'Storm season campaign, closed for now. Homeowners with visible roof damage in TX, OK, CO. ' +
      'Do not mention insurance claims guarantees.',
  },
  {
    title: 'Debt Relief - $10k+ Unsecured Debt',
    vertical: 'Debt Relief',
    payoutCents: 6500,
    status: 'active',
    bufferMinutes: 3,
    typicalMinutes: 16,
    volume: 5,
    script:
      'Caller must have at least $10,000 in unsecured debt (credit cards, medical, personal loans) ' +
      'and be behind or struggling with payments. No student loans or mortgages. Do not say ' +
      '"debt forgiveness" or "government program".',
  },
  {
    title: 'Tax Debt Resolution',
    vertical: 'Debt Relief',
    payoutCents: 7200,
    status: 'active',
    bufferMinutes: 3,
    typicalMinutes: 17,
    volume: 2,
    script:
      'Caller owes $10,000+ to the IRS or state. Confirm the amount range and whether returns are ' +
      'filed, then transfer to an enrolled agent.',
  },
  {
    title: 'Residential Solar - Homeowners',
    vertical: 'Solar',
    payoutCents: 4800,
    status: 'active',
    bufferMinutes: 2,
    typicalMinutes: 11,
    volume: 4,
    script:
      'Homeowner with an average electric bill over $100/month and little roof shade. Not for ' +
      'renters or mobile homes. Do not promise "free solar".',
  },
  {
    title: 'Mass Tort - Camp Lejeune',
    vertical: 'Legal',
    payoutCents: 24000,
    status: 'inactive',
    bufferMinutes: 5,
    typicalMinutes: 22,
    volume: 1,
    script:
      'Intake closed. Caller lived or worked at Camp Lejeune for 30+ days between 1953 and 1987 and ' +
      'has a qualifying diagnosis. Transfer to the intake attorney team.',
  },
  {
    title: 'Personal Injury - Motor Vehicle Accident',
    vertical: 'Legal',
    payoutCents: 12000,
    status: 'active',
    bufferMinutes: 4,
    typicalMinutes: 19,
    volume: 2,
    script:
      'Accident in the last 12 months, caller was not at fault, received medical treatment and has ' +
      'no attorney yet. Never give legal advice. Transfer to intake.',
  },
  {
    title: 'ACA Health Insurance - Open Enrollment',
    vertical: 'Health Insurance',
    payoutCents: 2400,
    status: 'active',
    bufferMinutes: 2,
    typicalMinutes: 13,
    volume: 5,
    script:
      'Caller under 65 without employer coverage, household income between 100% and 400% of the ' +
      'poverty level. Read the marketplace disclaimer, then transfer.',
  },
  {
    title: 'Pest Control Service Calls',
    vertical: 'Home Services',
    payoutCents: 1600,
    status: 'inactive',
    bufferMinutes: 1,
    typicalMinutes: 6,
    volume: 2,
    script:
      'Paused by the buyer. Residential pest problems (ants, roaches, rodents, termites) in the ' +
      'service area.',
  },
];

/** Buyers: agencies and brands who run campaigns. The last one is the blocked buyer. */
export const BUYERS = [
  {
    name: 'Gloria Hartwell',
    company: 'Guardian Final Expense Agency',
    campaigns: [
      {
        name: 'Final Expense - Southeast Q3',
        goal: '120 qualified inbound calls per week under $45 each',
        target: 'Seniors 55-80 on a fixed income',
        location: 'Florida, Georgia, Alabama',
        budget: 25000,
      },
      {
        name: 'Spanish Final Expense Pilot',
        goal: 'Test bilingual agents at 30 calls per week',
        target: 'Spanish-speaking seniors 50-80',
        location: 'Texas, Arizona',
        budget: 6000,
      },
      {
        name: 'Weekend Overflow',
        goal: 'Cover Saturday call volume',
        target: 'Seniors 60+',
        location: 'Nationwide',
        budget: null,
      },
    ],
  },
  {
    name: 'Martin Osei',
    company: 'Evercare Medicare Advisors',
    campaigns: [
      {
        name: 'AEP 2025 Medicare Advantage',
        goal: '2,000 enrollments during the Annual Enrollment Period',
        target: 'Medicare-eligible adults 65+ with Parts A and B',
        location: 'Ohio, Michigan, Pennsylvania',
        budget: 80000,
      },
      {
        name: 'Turning 65 - Evergreen',
        goal: 'Steady flow of new-to-Medicare callers',
        target: 'Adults turning 65 in the next 3 months',
        location: 'Nationwide',
        budget: 15000,
      },
    ],
  },
  {
    name: 'Kayla Brennan',
    company: 'Anchor Auto Insurance Agency',
    campaigns: [
      {
        name: 'Insured Drivers - Sunbelt',
        goal: 'Lower cost per bound policy below $140',
        target: 'Currently insured drivers 25-65',
        location: 'Texas, Florida, Arizona, Nevada',
        budget: 30000,
      },
      {
        name: 'SR-22 Filings',
        goal: '40 calls per day',
        target: 'Drivers who need an SR-22 filing',
        location: 'California, Illinois',
        budget: 9000,
      },
    ],
  },
  {
    name: 'Rafael Dominguez',
    company: 'SunPeak Solar Installers',
    campaigns: [
      {
        name: 'Summer Solar Push',
        goal: '300 booked in-home consultations',
        target: 'Homeowners with electric bills over $150',
        location: 'Arizona, Nevada, Southern California',
        budget: 45000,
      },
    ],
  },
  {
    name: 'Whitney Caldwell',
    company: 'ClearPath Debt Solutions',
    campaigns: [
      {
        name: 'Unsecured Debt $10k+',
        goal: '75 enrolled clients per month',
        target: 'Adults with $10k+ credit card debt',
        location: 'Nationwide except NY and VT',
        budget: 40000,
      },
      {
        name: 'Tax Relief Q4',
        goal: 'Consultations with enrolled agents',
        target: 'Self-employed people owing the IRS $10k+',
        location: 'Nationwide',
        budget: 20000,
      },
    ],
  },
  {
    name: 'Howard Moore',
    company: 'Hartwell & Moore Injury Lawyers',
    campaigns: [
      {
        name: 'MVA Intake - Georgia',
        goal: '25 signed retainers per month',
        target: 'Not-at-fault accident victims with medical treatment',
        location: 'Georgia',
        budget: 60000,
      },
    ],
  },
  {
    name: 'Trent Vogel',
    company: 'QuickQuote Leads Co.',
    campaigns: [
      {
        name: 'Home Warranty Blast',
        goal: 'As many calls as possible',
        target: 'Homeowners',
        location: 'Nationwide',
        budget: 5000,
      },
    ],
  },
] as const;

export const TRAFFIC_SOURCES = [
  'Facebook and Instagram lead ads',
  'YouTube pre-roll with a click-to-call end card',
  'Google Search call-only ads',
  'Connected TV spots (Roku, Hulu)',
  'Local radio (AM talk stations)',
  'Direct mail with a tracked toll-free number',
  'Native ads on news sites',
  'Our own in-house call center (inbound only)',
] as const;

export const PAYOUT_METHODS = ['ACH', 'Wire', 'ACH', 'PayPal', 'ACH'] as const;

/** Names of the media files a publisher uploads with a compliance questionnaire. */
export const MEDIA_NAMES = {
  mp3: [
    'call-recording',
    'sample-inbound-call',
    'ivr-greeting',
    'qualified-transfer',
    'radio-spot',
  ],
  mp4: ['tv-spot-30s', 'facebook-video-ad', 'youtube-preroll', 'call-walkthrough'],
} as const;
