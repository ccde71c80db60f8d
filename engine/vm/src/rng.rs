//! splitmix64, draw for draw the generator of engine/rng.py (same seed, same numbers).

/// A seed as Python holds it: any whole number of at most 64 bits, either sign.
pub type Seed = i128;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator's state for a user seed (the seed's 64 low bits, as Python's `& MASK` takes them).
pub fn seed_state(seed: Seed) -> u64 {
    mix((seed as u64) ^ 0x632B_E59B_D9B4_E019)
}

pub fn next_u64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN);
    mix(*state)
}

/// A value under it is never refused by `below(n)` for n ≤ 2^32 (rng.py `_SURE`): 2^64 mod n < n.
const SURE: u64 = u64::MAX - u32::MAX as u64;

/// A uniform number in [0, n) without modulo bias (n > 0): a value at or above 2^64 − (2^64 mod n) is
/// refused (rng.py `below`).
pub fn below(state: &mut u64, n: u64) -> u64 {
    loop {
        let v = next_u64(state);
        if v < SURE && n <= 1 << 32 {
            return v % n;
        }
        let refused_from = u64::MAX - n.wrapping_neg() % n; // 2^64 − 1 − (2^64 mod n)
        if v <= refused_from {
            return v % n;
        }
    }
}

/// Fisher–Yates with `below`, as `rng.shuffle`.
pub fn shuffle<T>(state: &mut u64, items: &mut [T]) {
    fisher_yates(items, |n| below(state, n));
}

/// Each place from the last down swapped with `pick(n)` of the n places at or below it.
fn fisher_yates<T>(items: &mut [T], mut pick: impl FnMut(u64) -> u64) {
    for i in (1..items.len()).rev() {
        let j = pick(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The generator of a determinized copy's deal (rng.py `Deal`): splitmix64 from another state than the
/// copy's own draws; a pick is the high half of value × n, refused where the low half falls below 2^64 mod n
/// (Lemire's method: no division per card).
pub struct Deal(u64);

impl Deal {
    pub fn new(seed: Seed) -> Deal {
        Deal(mix(seed_state(seed)))
    }

    /// A uniform number in [0, n), n > 0.
    pub fn pick(&mut self, n: u64) -> u64 {
        loop {
            let product = u128::from(next_u64(&mut self.0)) * u128::from(n);
            let low = product as u64;
            if low >= n || low >= n.wrapping_neg() % n {
                return (product >> 64) as u64;
            }
        }
    }

    /// Fisher–Yates with `pick`, as `Deal.shuffle`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        fisher_yates(items, |n| self.pick(n));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_give_the_reference_streams() {
        // engine/rng.py: seed_state(0), and next_u64 of it.
        let mut s = seed_state(0);
        assert_eq!(s, mix(0x632B_E59B_D9B4_E019));
        let first = next_u64(&mut s);
        assert_ne!(first, 0);
        let mut a = seed_state(7);
        let mut b = seed_state(7);
        assert_eq!(below(&mut a, 52), below(&mut b, 52));
    }

    #[test]
    fn below_refuses_only_the_top_values_that_would_favour_the_low_ones() {
        // From a state whose next value is v: below(n) keeps v unless v ≥ 2^64 − (2^64 mod n).
        let from = |v: u64| {
            let mut z = v; // splitmix64's finaliser undone (rng.py tests _unmix)
            z ^= (z >> 31) ^ (z >> 62);
            z = z.wrapping_mul(0x3196_42B2_D24D_8EC3);
            z ^= (z >> 27) ^ (z >> 54);
            z = z.wrapping_mul(0x96DE_1B17_3F11_9089);
            z ^= (z >> 30) ^ (z >> 60);
            z.wrapping_sub(GOLDEN)
        };
        for (v, n) in [
            (u64::MAX, 3),
            (u64::MAX - 1, 3),
            (u64::MAX, 1 << 40),
            (SURE, 1 << 33),
            (7, 5),
        ] {
            let mut s = from(v);
            let mut probe = s;
            assert_eq!(next_u64(&mut probe), v);
            let kept = u128::from(v) < (1u128 << 64) - (1u128 << 64) % u128::from(n);
            let got = below(&mut s, n);
            assert_eq!(s == probe, kept, "v {v} n {n}");
            if kept {
                assert_eq!(got, v % n);
            }
        }
    }

    #[test]
    fn a_deal_picks_and_shuffles_as_the_reference_deal() {
        // rng.py: d = Deal(7); [d.pick(n) for n in (2, 3, 10, 52, 1000, 2**40, 2**63 + 5, 2**64 - 1)]
        let mut d = Deal::new(7);
        let picks: Vec<u64> = [2, 3, 10, 52, 1000, 1 << 40, (1 << 63) + 5, u64::MAX]
            .iter()
            .map(|&n| d.pick(n))
            .collect();
        assert_eq!(
            picks,
            [
                1,
                0,
                3,
                18,
                835,
                72_877_802_865,
                2_113_498_535_209_969_779,
                7_805_156_355_879_586_092
            ]
        );
        // d = Deal(-3); l = list(range(10)); d.shuffle(l); d.pick(7)
        let mut d = Deal::new(-3);
        let mut l: Vec<u32> = (0..10).collect();
        d.shuffle(&mut l);
        assert_eq!((l, d.pick(7)), (vec![1, 0, 9, 3, 7, 4, 8, 2, 5, 6], 3));
    }

    #[test]
    fn a_shuffle_keeps_every_item() {
        let mut s = seed_state(3);
        let mut items: Vec<u32> = (0..52).collect();
        shuffle(&mut s, &mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..52).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}
