//! `rng.derive` of engine/runtime/rng.py: a seed for one part of a run (a seat's bot, a bot's copy), the
//! BLAKE2b-64 digest of the repr of (seed, *labels) — so a game played whole in the VM gives every bot and
//! every copy the seed the Python driver gives it.

use crate::rng::Seed;

const IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

const SIGMA: [[u8; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/// BLAKE2b's mixing of four words of the state with two message words (each call's places are constants, so
/// that the state stays in registers).
#[inline(always)]
fn mix(v: &mut [u64; 16], (a, b, c, d): (usize, usize, usize, usize), x: u64, y: u64) {
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
    v[d] = (v[d] ^ v[a]).rotate_right(32);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(24);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(63);
}

fn compress(h: &mut [u64; 8], block: &[u8; 128], count: u128, last: bool) {
    let mut m = [0u64; 16];
    for (w, b) in m.iter_mut().zip(block.chunks_exact(8)) {
        let mut word = [0u8; 8];
        word.copy_from_slice(b);
        *w = u64::from_le_bytes(word);
    }
    let mut v = [0u64; 16];
    v[..8].copy_from_slice(h);
    v[8..].copy_from_slice(&IV);
    v[12] ^= count as u64;
    v[13] ^= (count >> 64) as u64;
    if last {
        v[14] = !v[14];
    }
    for round in 0..12 {
        let s = &SIGMA[round % 10];
        let w = |i: usize| m[usize::from(s[i]) & 15]; // `& 15`: no bounds check left to make
        mix(&mut v, (0, 4, 8, 12), w(0), w(1));
        mix(&mut v, (1, 5, 9, 13), w(2), w(3));
        mix(&mut v, (2, 6, 10, 14), w(4), w(5));
        mix(&mut v, (3, 7, 11, 15), w(6), w(7));
        mix(&mut v, (0, 5, 10, 15), w(8), w(9));
        mix(&mut v, (1, 6, 11, 12), w(10), w(11));
        mix(&mut v, (2, 7, 8, 13), w(12), w(13));
        mix(&mut v, (3, 4, 9, 14), w(14), w(15));
    }
    for i in 0..8 {
        h[i] ^= v[i] ^ v[i + 8];
    }
}

/// BLAKE2b with an 8-byte digest and no key, as `hashlib.blake2b(data, digest_size=8)`.
pub fn blake2b_64(data: &[u8]) -> [u8; 8] {
    let mut h = IV;
    h[0] ^= 0x0101_0000 ^ 8;
    let mut count = 0u128;
    let mut chunks = data.chunks(128).peekable();
    if chunks.peek().is_none() {
        compress(&mut h, &[0; 128], 0, true);
    }
    while let Some(chunk) = chunks.next() {
        let mut block = [0u8; 128];
        block[..chunk.len()].copy_from_slice(chunk);
        count += chunk.len() as u128;
        compress(&mut h, &block, count, chunks.peek().is_none());
    }
    h[0].to_le_bytes()
}

/// A label of `derive`: a whole number or a text (repr'd as Python does, in single quotes).
pub enum Label<'a> {
    Int(i64),
    Text(&'a str),
}

/// `rng.derive(seed, *labels)`.
pub fn derive(seed: Seed, labels: &[Label]) -> Seed {
    let mut text = String::with_capacity(64);
    text.push('(');
    push_int(&mut text, seed);
    for l in labels {
        text.push_str(", ");
        match l {
            Label::Int(i) => push_int(&mut text, i128::from(*i)),
            Label::Text(t) => {
                text.push('\'');
                text.push_str(t);
                text.push('\'');
            }
        }
    }
    text.push(')');
    Seed::from(u64::from_be_bytes(blake2b_64(text.as_bytes())) >> 1)
}

/// `n` in decimal, as Python's repr writes it: digit by digit from a 64-bit number where it fits (a division by
/// ten there is a multiplication; the formatting machinery took a third of a seed's time).
fn push_int(text: &mut String, n: i128) {
    if n < 0 {
        text.push('-');
    }
    let Ok(mut m) = u64::try_from(n.unsigned_abs()) else {
        text.push_str(&n.unsigned_abs().to_string());
        return;
    };
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    text.extend(digits[at..].iter().map(|&d| char::from(d)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_hashlibs() {
        // hashlib.blake2b(b"", digest_size=8).hexdigest(), and of b"abc"
        assert_eq!(u64::from_be_bytes(blake2b_64(b"")), 0xe4a6_a057_7479_b2b4);
        assert_eq!(u64::from_be_bytes(blake2b_64(b"abc")), 0xd8bb_14d8_33d5_9559);
        let long = vec![7u8; 300];
        // bytes([7]) * 300 and b"abcdefghijklmnopq": more than one block, and a message word past the second
        assert_eq!(u64::from_be_bytes(blake2b_64(&long)), 0x8a12_922e_4765_be74);
        assert_eq!(
            u64::from_be_bytes(blake2b_64(b"abcdefghijklmnopq")),
            0x37e4_3e1c_b5ce_e72e
        );
    }

    #[test]
    fn numbers_are_written_as_python_writes_them() {
        for n in [
            0,
            7,
            -7,
            10,
            -1_000,
            i128::from(i64::MIN),
            i128::from(u64::MAX),
            i128::from(u64::MAX) + 1,
            i128::MIN,
        ] {
            let mut text = String::new();
            push_int(&mut text, n);
            assert_eq!(text, n.to_string());
        }
    }

    #[test]
    fn seeds_are_the_drivers() {
        // engine.runtime.rng.derive(5, "bot", 0), derive(-3, "copy", 1, 17)
        assert_eq!(derive(5, &[Label::Text("bot"), Label::Int(0)]), 128_652_637_667_274_356);
        assert_eq!(
            derive(-3, &[Label::Text("copy"), Label::Int(1), Label::Int(17)]),
            6_519_324_991_559_365_446
        );
    }
}
