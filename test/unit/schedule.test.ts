import { parseScheduledDate } from '../../core/domain/schedule';

const now = new Date('2026-03-01T12:00:00Z');

describe('scheduled_date', () => {
  it('reads instants with an offset and wall-clock times in the given zone', () => {
    expect(parseScheduledDate('2026-03-02T10:00:00Z', undefined, now).toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(parseScheduledDate('2026-03-02T10:00:00+02:00', 'Asia/Tokyo', now).toISOString()).toBe('2026-03-02T08:00:00.000Z');
    expect(parseScheduledDate('2026-03-02T10:00:00', undefined, now).toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(parseScheduledDate('2026-03-02T10:00', 'Europe/Paris', now).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    // Summer time: Paris is UTC+2 in July; New York UTC-4.
    expect(parseScheduledDate('2026-07-14T10:00:00', 'Europe/Paris', now).toISOString()).toBe('2026-07-14T08:00:00.000Z');
    expect(parseScheduledDate('2026-07-04T09:30:00', 'America/New_York', now).toISOString()).toBe('2026-07-04T13:30:00.000Z');
  });

  it('refuses the past, beyond 365 days, bad dates and unknown zones with the field named', () => {
    expect(() => parseScheduledDate('2026-03-01T11:59:00Z', undefined, now)).toThrow(/in the past/);
    expect(() => parseScheduledDate('2027-03-02T12:00:00Z', undefined, now)).toThrow(/365 days/);
    expect(() => parseScheduledDate('tomorrow', undefined, now)).toThrow(/ISO-8601/);
    expect(() => parseScheduledDate('2026-03-02T10:00:00', 'Mars/Olympus', now)).toThrow(/IANA/);
  });
});
