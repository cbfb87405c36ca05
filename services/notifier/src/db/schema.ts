// Tables come with the delivery schedule (issue 5).
export type Database = Record<string, never>;
