// Tables come with virtual accounts and payouts (issues 3 and 4).
export type Database = Record<string, never>;
