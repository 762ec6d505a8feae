import { resolveOptionGroup, type OptionRule } from './option-group';

interface Sizes {
  small?: number;
  large?: number;
}

const DEFAULTS = { small: 1, large: 10 } as const;
const wholeNumber: OptionRule = { accepts: (value) => Number.isInteger(value) && (value as number) >= 0, says: 'a whole number ≥ 0' };

describe('resolveOptionGroup', () => {
  it('fills in the defaults of the values not given', () => {
    expect(resolveOptionGroup<Sizes>('sizes', DEFAULTS, { large: 20 }, wholeNumber)).toEqual({ small: 1, large: 20 });
  });

  it('takes undefined as not given', () => {
    expect(resolveOptionGroup<Sizes>('sizes', DEFAULTS, { small: undefined }, wholeNumber)).toEqual(DEFAULTS);
  });

  it('refuses a value the rule does not accept, naming the option and what it must be', () => {
    expect(() => resolveOptionGroup<Sizes>('sizes', DEFAULTS, { small: -1 }, wholeNumber)).toThrow(
      new RangeError('sizes.small must be a whole number ≥ 0, got -1'),
    );
  });

  it('refuses a key the group does not have, listing the ones it has', () => {
    expect(() => resolveOptionGroup('sizes', DEFAULTS, { smal: 2 } as Sizes, wholeNumber)).toThrow('sizes.smal is not an option; sizes takes small, large');
  });

  it("throws the rule's error class", () => {
    expect(() => resolveOptionGroup<Sizes>('sizes', DEFAULTS, { large: 1.5 }, { ...wholeNumber, error: TypeError })).toThrow(TypeError);
  });
});
