import { of, only, type Permission } from '../identity/index.js';

// The compliance desk (CONTRACT section 20): `compliance` and `owner` work it, `auditor` reads it; no other
// role (support included) sees any of it, and merchants never do (no dashboard route exists).
const DESK = only('compliance', 'owner');
const READERS = only('compliance', 'owner', 'auditor');
const always = () => true;

export const COMPLIANCE_PERMISSIONS: readonly Permission[] = [
  {
    method: 'GET',
    url: '/admin/screening/lists',
    allow: READERS,
    action: 'screening_list.list',
    changes: false,
  },
  {
    method: 'POST',
    url: '/admin/screening/lists',
    allow: DESK,
    action: 'screening_list.create',
    changes: true,
    target: () => 'screening_list',
  },
  {
    method: 'PUT',
    url: '/admin/screening/lists/:id/entries',
    allow: DESK,
    action: 'screening_list.upload',
    changes: true,
    target: of('screening_list'),
    note: 'four eyes: in effect once a second compliance or owner person approves',
    fourEyes: always,
  },
  {
    method: 'GET',
    url: '/admin/compliance/cases',
    allow: READERS,
    action: 'compliance_case.list',
    changes: false,
  },
  {
    method: 'GET',
    url: '/admin/compliance/cases/:id',
    allow: READERS,
    action: 'compliance_case.read',
    // Who looked at which case is itself on record.
    changes: false,
    auditRead: true,
  },
  {
    method: 'POST',
    url: '/admin/compliance/cases/:id/notes',
    allow: DESK,
    action: 'compliance_case.note',
    changes: true,
    target: of('compliance_case'),
  },
  {
    method: 'POST',
    url: '/admin/compliance/cases/:id/release',
    allow: DESK,
    action: 'compliance_case.release',
    changes: true,
    target: of('compliance_case'),
    note: 'a blocked-list hit waits for a second compliance or owner person (202)',
  },
  {
    method: 'POST',
    url: '/admin/compliance/cases/:id/reject',
    allow: DESK,
    action: 'compliance_case.reject',
    changes: true,
    target: of('compliance_case'),
  },
  {
    method: 'POST',
    url: '/admin/compliance/cases/:id/close',
    allow: DESK,
    action: 'compliance_case.close',
    changes: true,
    target: of('compliance_case'),
  },
  {
    method: 'GET',
    url: '/admin/compliance/rules',
    allow: READERS,
    action: 'compliance_rules.read',
    changes: false,
  },
  {
    method: 'PUT',
    url: '/admin/compliance/rules',
    allow: DESK,
    action: 'compliance_rules.update',
    changes: true,
    target: () => 'compliance_rules',
    note: 'four eyes: in effect once a second compliance or owner person approves',
    fourEyes: always,
  },
  {
    method: 'GET',
    url: '/admin/compliance/reports',
    allow: READERS,
    action: 'compliance_report.export',
    changes: false,
    auditRead: true,
  },
];
