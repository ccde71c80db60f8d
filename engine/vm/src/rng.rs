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

/// The state a determinized copy's deal draws from (rng.py `deal_state`): not the copy's own stream.
pub fn deal_state(seed: Seed) -> u64 {
    mix(seed_state(seed))
}

pub fn next_u64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN);
    mix(*state)
}

/// A uniform number in [0, n) without modulo bias (n > 0).
pub fn below(state: &mut u64, n: u64) -> u64 {
    let limit = (1u128 << 64) - (1u128 << 64) % u128::from(n);
    loop {
        let v = next_u64(state);
        if u128::from(v) < limit {
            return v % n;
        }
    }
}

/// Fisher–Yates with `below` for each length from the whole down, as `rng.shuffle`.
pub fn shuffle<T>(state: &mut u64, items: &mut [T]) {
    let mut n = items.len();
    while n > 1 {
        let j = below(state, n as u64) as usize;
        items.swap(n - 1, j);
        n -= 1;
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
