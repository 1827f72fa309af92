import { Severity } from './severity';
import { Rule } from './types';
import { BREAK_GLASS_EXPIRES_ANNOTATION } from '../core/annotations';
import { breakGlassOf, isCalendarDate } from '../core/break-glass';

const POINTER = `/metadata/annotations/${BREAK_GLASS_EXPIRES_ANNOTATION.replace(/\//g, '~1')}`;

/** A declarative break-glass past its expiry date. */
export const expiredBreakGlass: Rule = {
  id: 'SA204',
  name: 'expired-break-glass',
  severity: Severity.ERROR,
  summary: 'A recorded break-glass has passed its expiry date, or has none.',
  explanation:
    'A suspended Application does not self-heal: every manual change since the incident stays, and the app '
    + 'slowly stops matching Git. A break-glass is a short, recorded exception; once its date has passed, the '
    + 'suspension has become the new normal without anyone deciding so.',
  fix: 'Backfill the fix into Git and remove the break-glass (SafeApplication: drop the breakGlass prop), or '
    + 'extend its expiry with a reason a reviewer accepts.',
  check({ application, today }) {
    const record = application ? breakGlassOf(application) : undefined;
    if (!application || !record) {
      return [];
    }
    if (record.expires === undefined || !isCalendarDate(record.expires)) {
      return [{ object: application, path: POINTER, message: 'the break-glass has no valid expiry date (YYYY-MM-DD)', value: record.expires }];
    }
    if (today !== undefined && record.expires < today) {
      return [{ object: application, path: POINTER, message: `the break-glass expired on ${record.expires} (today is ${today}): ${record.reason}`, value: record.expires }];
    }
    return [];
  },
};
