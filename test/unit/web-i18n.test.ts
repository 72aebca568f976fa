import { CONNECT_LANGUAGES } from '../../core/domain/connect-link';
import { CATALOGUES, LABEL_KEYS, translator } from '../../apps/web/i18n';

/**
 * The connect page's catalogue: every language carries every key of the English one, with the
 * same placeholders, and says it in its own words. A key added to English without its
 * translations fails here (the page would otherwise fall back to English mid-sentence).
 */
const OTHERS = CONNECT_LANGUAGES.filter((l) => l !== 'en');
const EN = CATALOGUES.en;

/** Where the English word is that language's word too. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  de: ['connect.logo_alt'],
  fr: ['connect.logo_alt'],
  tr: ['connect.logo_alt'],
};

const placeholders = (text: string) => [...text.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]).sort();

describe('connect page catalogue', () => {
  it('English has every key the page uses (71)', () => {
    expect(Object.keys(EN)).toEqual(LABEL_KEYS);
    expect(LABEL_KEYS.length).toBeGreaterThanOrEqual(71);
  });

  it.each(OTHERS)('%s has every English key and no other', (lang) => {
    const catalogue = CATALOGUES[lang];
    expect(LABEL_KEYS.filter((key) => !catalogue[key]?.trim())).toEqual([]);
    expect(Object.keys(catalogue).filter((key) => !(key in EN))).toEqual([]);
  });

  it.each(OTHERS)('%s keeps the placeholders of each English text', (lang) => {
    const catalogue = CATALOGUES[lang];
    const differing = LABEL_KEYS.filter((key) => catalogue[key] !== undefined && placeholders(catalogue[key]!).join() !== placeholders(EN[key]!).join());
    expect(differing).toEqual([]);
  });

  it.each(OTHERS)('%s is translated, not copied from English', (lang) => {
    const catalogue = CATALOGUES[lang];
    const copied = LABEL_KEYS.filter((key) => catalogue[key] === EN[key] && !(SAME_AS_ENGLISH[lang] ?? []).includes(key));
    expect(copied).toEqual([]);
  });

  it('renders a language\'s own text, ui_labels winning by key', () => {
    expect(translator('pl')('status.partial')).toBe('Opublikowany częściowo');
    expect(translator('fr')('pin.current', { id: '42' })).toBe('Actuellement : 42');
    expect(translator('tr', { 'status.partial': 'Yarım' })('status.partial')).toBe('Yarım');
  });
});
