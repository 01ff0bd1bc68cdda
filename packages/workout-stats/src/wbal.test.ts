import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesBurnt, wPrimeBalance } from './wbal.ts';

// The differential model written the long way: expenditure and recovery as separate steps.
function plainBalance(power: number[], cp: number, wPrime: number): number[] {
  const out: number[] = [];
  let balance = wPrime;
  for (const watts of power) {
    if (watts >= cp) {
      const spent = watts - cp;
      balance = balance - spent;
    } else {
      const deficit = wPrime - balance;
      const recovered = deficit * ((cp - watts) / wPrime);
      balance = balance + recovered;
    }
    out.push(balance);
  }
  return out;
}

describe('wPrimeBalance', () => {
  it('matches a hand-computed example', () => {
    // CP 250 W, W′ 20 kJ: 100 J spent each second at 350 W; at 150 W the 200 J deficit
    // recovers by 200 × (250 − 150) / 20000 = 1 J.
    expect(Array.from(wPrimeBalance([350, 350, 150], 250, 20000))).toEqual([19900, 19800, 19801]);
  });

  it('equals the plain loop on any ride', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1500 }), { maxLength: 600 }), (power) => {
        const ours = wPrimeBalance(power, 260, 18000);
        const plain = plainBalance(power, 260, 18000);
        expect(ours.length).toBe(plain.length);
        ours.forEach((value, i) => expect(value).toBeCloseTo(plain[i]!, 6));
      }),
    );
  });

  it('recovers exponentially at constant power below CP, as the closed form says', () => {
    // From B, n seconds at P < CP: W′ − (W′ − B)·(1 − (CP − P)/W′)^n.
    const power = [...new Array<number>(100).fill(400), ...new Array<number>(300).fill(100)];
    const wbal = wPrimeBalance(power, 250, 20000);
    expect(wbal[99]).toBeCloseTo(20000 - 100 * 150, 9);
    const expected = 20000 - 15000 * (1 - 150 / 20000) ** 300;
    expect(wbal[399]).toBeCloseTo(expected, 6);
  });

  it('counts a missing reading as 0 W and takes a starting balance', () => {
    const wbal = wPrimeBalance([Number.NaN, 450], 250, 20000, { initialJ: 10000 });
    expect(wbal[0]).toBeCloseTo(10000 + 10000 * (250 / 20000), 9);
    expect(wbal[1]).toBeCloseTo(wbal[0]! - 200, 9);
  });

  it('rejects a CP or W′ that is not positive', () => {
    expect(() => wPrimeBalance([100], 0, 20000)).toThrow(RangeError);
    expect(() => wPrimeBalance([100], 250, -1)).toThrow(RangeError);
  });
});

const rest = (seconds: number) => new Array<number>(seconds).fill(100);
const hard = (seconds: number) => new Array<number>(seconds).fill(350); // 100 J/s above CP

describe('matchesBurnt', () => {
  it('counts efforts that spend at least 10 % of W′, with their bounds and low point', () => {
    // 60 s hard spends 6 kJ (30 %); 10 s hard spends 1 kJ (5 %, no match).
    const power = [...rest(100), ...hard(60), ...rest(600), ...hard(10), ...rest(60)];
    const wbal = wPrimeBalance(power, 250, 20000);
    const matches = matchesBurnt(wbal, 20000);
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ start: 100, end: 159, minIndex: 159 });
    expect(matches[0]!.spentJ).toBeCloseTo(6000, 6);
    expect(matches[0]!.minJ).toBeCloseTo(14000, 6);
    expect(matchesBurnt(wbal, 20000, { share: 0.04 })).toHaveLength(2);
  });

  it('joins efforts apart by a short recovery and splits them across a long one', () => {
    const joined = [...hard(30), ...rest(10), ...hard(30)];
    const one = matchesBurnt(wPrimeBalance(joined, 250, 20000), 20000);
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ start: 0, end: 69, minIndex: 69 });
    const apart = [...hard(30), ...rest(40), ...hard(30)];
    const two = matchesBurnt(wPrimeBalance(apart, 250, 20000), 20000);
    expect(two.map((match) => [match.start, match.end])).toEqual([
      [0, 29],
      [70, 99],
    ]);
  });

  it('finds no match on a ride below CP', () => {
    expect(matchesBurnt(wPrimeBalance(rest(600), 250, 20000), 20000)).toEqual([]);
  });
});
