import { SECTION_KEYS, selectedSections } from './bench-selection';

describe('selectedSections', () => {
  it('selects every section when --only is absent', () => {
    expect(selectedSections([])).toEqual([...SECTION_KEYS]);
  });

  it('reads a comma-separated list after --only, in run order', () => {
    expect(selectedSections(['--only', 'k,h, J'])).toEqual(['h', 'j', 'k']);
  });

  it('reads the --only=list form', () => {
    expect(selectedSections(['--only=i'])).toEqual(['i']);
  });

  it('refuses an unknown section, naming it', () => {
    expect(() => selectedSections(['--only', 'h,z'])).toThrow(/unknown: z/);
  });

  it('refuses --only without a list', () => {
    expect(() => selectedSections(['--only'])).toThrow(/comma-separated list/);
  });
});
