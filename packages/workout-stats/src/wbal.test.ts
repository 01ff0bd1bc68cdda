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

describe('matchesBurnt (GoldenCheetah’s rule)', () => {
  it('worked example: two 60 s efforts at 400 W apart by 20 s at 100 W are two matches', () => {
    // CP 250 W, W′ 20 kJ. Seconds 0-59 at 100 W (full balance), 60-119 at 400 W: the
    // balance falls 150 J a second, to 19 850 J after second 60 and 11 000 J after 119.
    // From second 120 at 100 W the 25 s mean is 400 − 12·k W after k easy seconds: under
    // CP from k = 13 (second 132), when the raw power is under CP too, so the match closes
    // and its end moves back to 119, the last second at or above CP. It cost
    // 19 850 − 11 000 = 8 850 J.
    const power = [...rest(60), ...new Array<number>(60).fill(400), ...rest(20)];
    power.push(...new Array<number>(60).fill(400), ...rest(120));
    const wbal = wPrimeBalance(power, 250, 20000);
    const matches = matchesBurnt(power, wbal, 250);
    expect(matches).toHaveLength(2);
    expect(matches[0]).toMatchObject({ start: 60, end: 119, minIndex: 119 });
    expect(matches[0]!.spentJ).toBeCloseTo(8850, 6);
    expect(matches[0]!.minJ).toBeCloseTo(11000, 6);
    // The second starts at 140, where the power is at CP again: the 25 s mean had dropped
    // below CP, so the 20 s recovery ended the first (a 25 s join would have kept one).
    expect(matches[1]).toMatchObject({ start: 140, end: 199 });
    expect(matches[1]!.spentJ).toBeCloseTo(wbal[140]! - wbal[199]!, 9);
  });

  it('keeps one match across a recovery shorter than the 25 s mean notices', () => {
    // 5 s at 100 W inside 120 s at 400 W: the 25 s mean never falls under CP.
    const power = [...rest(30), ...new Array<number>(60).fill(400), ...rest(5)];
    power.push(...new Array<number>(60).fill(400), ...rest(100));
    const matches = matchesBurnt(power, wPrimeBalance(power, 250, 20000), 250);
    expect(matches.map((match) => [match.start, match.end])).toEqual([[30, 154]]);
  });

  it('counts a match from 2 kJ: 20 s at 350 W spends 1.9 kJ after its first second', () => {
    const power = [...rest(60), ...hard(20), ...rest(60), ...hard(25), ...rest(60)];
    const matches = matchesBurnt(power, wPrimeBalance(power, 250, 20000), 250);
    // 20 s: 19 seconds of 100 J after the first one, 1 900 J; 25 s: 2 400 J.
    expect(matches.map((match) => Math.round(match.spentJ))).toEqual([2400]);
    expect(matchesBurnt(power, wPrimeBalance(power, 250, 20000), 250, { minJ: 1000 })).toHaveLength(
      2,
    );
  });

  it('finds no match on a ride below CP', () => {
    const power = rest(600);
    expect(matchesBurnt(power, wPrimeBalance(power, 250, 20000), 250)).toEqual([]);
  });
});
