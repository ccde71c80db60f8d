//! Python's `random.Random` (MT19937 and the methods the bots call), draw for draw: the same seed gives the
//! VM's bots the very numbers the reference's give.

use crate::rng::Seed;

const N: usize = 624;
const M: usize = 397;

/// A block of words is twisted one word at a time, as it is drawn: Python twists all 624 at once, but word `k` of a
/// block depends only on words before it of the new block and from it on of the old, so the draws are the same,
/// and a bot that draws a few dozen numbers a game does not pay for 624.
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    /// The next word to draw.
    index: usize,
    /// The words of the block before this are twisted (`index <= twisted`).
    twisted: usize,
}

impl PyRandom {
    /// `random.Random(seed)` for a whole-number seed (its absolute value, in 32-bit words, low first).
    pub fn new(seed: Seed) -> PyRandom {
        let [r] = side_by_side([seed]);
        r
    }

    /// `PyRandom::new` of each seed. Python's set-up makes each of a generator's words from the one before, so
    /// a generator waits on each multiplication in turn: made side by side, up to four take the time of one.
    pub fn new_many(seeds: &[Seed]) -> Vec<PyRandom> {
        let mut out = Vec::with_capacity(seeds.len());
        let mut chunks = seeds.chunks_exact(4);
        for c in &mut chunks {
            out.extend(side_by_side([c[0], c[1], c[2], c[3]]));
        }
        match *chunks.remainder() {
            [a] => out.push(PyRandom::new(a)),
            [a, b] => out.extend(side_by_side([a, b])),
            [a, b, c] => out.extend(side_by_side([a, b, c])),
            _ => {}
        }
        out
    }

    /// A generator from Python's `getstate()[1]`: its 624 words and the index of the next one.
    pub fn from_state(state: &[u32]) -> Option<PyRandom> {
        if state.len() != N + 1 || state[N] as usize > N {
            return None;
        }
        let mut mt = [0; N];
        mt.copy_from_slice(&state[..N]);
        Some(PyRandom {
            mt,
            index: state[N] as usize,
            twisted: N,
        })
    }

    /// A generator whose next draw sets up a new block from `mt`.
    fn from_words(mt: [u32; N]) -> PyRandom {
        PyRandom {
            mt,
            index: N,
            twisted: N,
        }
    }

    /// The state as Python's `getstate()[1]` holds it (for `setstate`): the block twisted whole.
    pub fn state(&self) -> Vec<u32> {
        let mut whole = self.clone();
        while whole.twisted < N {
            whole.twist_next();
        }
        let mut out = whole.mt.to_vec();
        out.push(self.index as u32);
        out
    }

    fn init(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            let prev = self.mt[i - 1] ^ (self.mt[i - 1] >> 30);
            self.mt[i] = 1_812_433_253u32.wrapping_mul(prev).wrapping_add(i as u32);
        }
        self.index = N;
    }

    /// Twists the next word of the block: word k from the old k and k + 1 and word k + M, indexes wrapping past
    /// N (those past the end are words of the new block, already twisted, as in Python's twist of the whole block).
    #[inline(always)]
    fn twist_next(&mut self) {
        let k = self.twisted;
        let (next, far) = (
            if k + 1 < N { k + 1 } else { 0 },
            if k + M < N { k + M } else { k + M - N },
        );
        let y = (self.mt[k] & 0x8000_0000) | (self.mt[next] & 0x7fff_ffff);
        self.mt[k] = self.mt[far] ^ (y >> 1) ^ if y & 1 == 1 { 0x9908_b0df } else { 0 };
        self.twisted = k + 1;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.index = 0;
            self.twisted = 0;
        }
        if self.index == self.twisted {
            self.twist_next();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for 0 < k ≤ 64.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | (high << 32)
    }

    /// `random()`: 53 random bits in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
    }

    /// `_randbelow(n)` (also `randrange(n)` and the index `choice` takes), n > 0: `getrandbits(k)` for n's
    /// k bits until one is below n.
    pub fn below(&mut self, n: usize) -> usize {
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as usize;
            if r < n {
                return r;
            }
        }
    }
}

/// `random.Random(seed)` of each of `L` seeds, their set-ups (`init_by_array`) run step by step together. Each
/// step makes a word from the one before: that word is carried in a register (`last`), not read back from the
/// block it was just stored in, which would put a store's round trip into every step.
fn side_by_side<const L: usize>(seeds: [Seed; L]) -> [PyRandom; L] {
    // a seed's key: its absolute value in 32-bit words, low first (one word 0 for the seed 0)
    let keys: [([u32; KEY_WORDS], usize); L] = seeds.map(|seed| {
        let mut abs = seed.unsigned_abs();
        let mut key = [0; KEY_WORDS];
        let mut len = 0;
        while abs > 0 {
            key[len] = abs as u32;
            len += 1;
            abs >>= 32;
        }
        (key, len.max(1))
    });
    // `init_by_array` starts from the generator of one fixed seed: made once.
    static START: std::sync::OnceLock<[u32; N]> = std::sync::OnceLock::new();
    let start = START.get_or_init(|| {
        let mut r = PyRandom::from_words([0; N]);
        r.init(19_650_218);
        r.mt
    });
    let mut out = [(); L].map(|_| PyRandom::from_words(*start));
    let mut last = [start[0]; L];
    let (mut i, mut j) = (1usize, [0usize; L]);
    for _ in 0..N {
        for (((r, (key, len)), j), last) in out.iter_mut().zip(&keys).zip(j.iter_mut()).zip(last.iter_mut()) {
            let prev = *last ^ (*last >> 30);
            *last = (r.mt[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[*j])
                .wrapping_add(*j as u32);
            r.mt[i] = *last;
            *j += 1;
            if *j >= *len {
                *j = 0;
            }
        }
        i += 1;
        if i >= N {
            // word 0 is the last word, which `last` holds
            out.iter_mut().for_each(|r| r.mt[0] = r.mt[N - 1]);
            i = 1;
        }
    }
    for _ in 0..N - 1 {
        for (r, last) in out.iter_mut().zip(last.iter_mut()) {
            let prev = *last ^ (*last >> 30);
            *last = (r.mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            r.mt[i] = *last;
        }
        i += 1;
        if i >= N {
            out.iter_mut().for_each(|r| r.mt[0] = r.mt[N - 1]);
            i = 1;
        }
    }
    for r in out.iter_mut() {
        r.mt[0] = 0x8000_0000;
    }
    out
}

/// The most 32-bit words of a seed's key (a seed has 128 bits): fewer than `N`, so the first loop of
/// `init_by_array` runs `N` steps.
const KEY_WORDS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_what_python_draws() {
        // Python 3.11: r = random.Random(5); [r.getrandbits(32) for _ in range(3)], r.getrandbits(31),
        // r.random(), r.getrandbits(40)
        let mut r = PyRandom::new(5);
        let words: Vec<u32> = (0..3).map(|_| r.next_u32()).collect();
        assert_eq!(words, [2_675_342_405, 1_097_127_993, 3_185_950_873]);
        assert_eq!(r.getrandbits(31), 769_949_150);
        assert_eq!(r.random(), 0.795_193_565_565_696_6);
        assert_eq!(r.getrandbits(40), 927_465_761_770);
        assert_eq!(PyRandom::new(0).next_u32(), 3_626_764_237);
    }

    #[test]
    fn draws_past_the_first_624_words_are_pythons() {
        // r = random.Random(5); w = [r.getrandbits(32) for _ in range(2000)]; w[623], w[624], w[1999]
        let mut r = PyRandom::new(5);
        let words: Vec<u32> = (0..2000).map(|_| r.next_u32()).collect();
        assert_eq!(
            (words[623], words[624], words[1999]),
            (2_959_306_914, 3_041_615_143, 2_894_893_787)
        );
    }

    #[test]
    fn generators_made_side_by_side_are_those_made_one_by_one() {
        // keys of one to four words side by side, in groups of four and what remains
        let seeds: [Seed; 7] = [0, 5, (1 << 40) + 7, -3, 1 << 100, i128::from(u64::MAX), 2_986_057_914];
        for n in 1..=seeds.len() {
            let many = PyRandom::new_many(&seeds[..n]);
            assert_eq!(many.len(), n);
            for (r, &seed) in many.iter().zip(&seeds) {
                assert_eq!(r.state(), PyRandom::new(seed).state(), "seed {seed} of {n}");
            }
        }
        assert_eq!(PyRandom::new_many(&[5])[0].clone().next_u32(), 2_675_342_405);
    }

    #[test]
    fn picks_below_any_bound_over_several_blocks_are_pythons() {
        // r = random.Random(7); ns = [1, 2, 3, 5, 6, 7, 100, 1000, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1]
        // out = [r.randrange(ns[i % 12]) for i in range(1500)]; h = 0; for x in out: h = (h * 1000003 + x) % 2**64
        // h, out[:12], out[1499], r.getrandbits(32), r.getstate()[1][-1]
        let bounds: [usize; 12] = [
            1,
            2,
            3,
            5,
            6,
            7,
            100,
            1000,
            (1 << 31) + 1,
            (1 << 32) - 1,
            1 << 32,
            (1 << 32) + 1,
        ];
        let mut r = PyRandom::new(7);
        let out: Vec<usize> = (0..1500).map(|i| r.below(bounds[i % 12])).collect();
        let h = out
            .iter()
            .fold(0u64, |h, &x| h.wrapping_mul(1_000_003).wrapping_add(x as u64));
        assert_eq!(
            out[..12],
            [
                0,
                0,
                1,
                0,
                0,
                6,
                68,
                96,
                1_570_621_944,
                2_503_055_453,
                2_179_419_893,
                161_042_648
            ]
        );
        assert_eq!((h, out[1499]), (1_886_446_732_103_214_783, 145_735_149));
        assert_eq!(r.next_u32(), 1_713_782_687);
        assert_eq!(r.state()[N], 157);
        let mut again = PyRandom::from_state(&r.state()).expect("a state");
        assert_eq!(again.below(1000), r.below(1000));
    }

    #[test]
    fn a_seed_over_32_bits_draws_as_python_does() {
        // r = random.Random(2**40 + 7); r.getrandbits(32); l = list(range(10)); r.shuffle(l); r.randrange(7);
        // r.choice("abcdefg")
        let mut r = PyRandom::new((1 << 40) + 7);
        assert_eq!(r.next_u32(), 2_635_837_658);
        let mut l: Vec<u32> = (0..10).collect();
        for i in (1..l.len()).rev() {
            let j = r.below(i + 1); // `shuffle` as Python writes it
            l.swap(i, j);
        }
        assert_eq!(l, [0, 5, 2, 3, 6, 1, 8, 4, 7, 9]);
        assert_eq!(r.below(7), 3);
        assert_eq!(b"abcdefg"[r.below(7)], b'd');
    }
}
