//! The four integer kernels of inference, in AVX2 (`std::arch`) and in portable Rust, chosen
//! once at run time by [`Backend::detect`]. Both give bit-identical results (wrapping `i16`
//! arithmetic, exact `i32` sums), which the tests check. First-layer rows are `i8`, widened to
//! `i16` as they are added.

/// Which implementation of the kernels runs.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Backend {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Backend {
    /// The fastest backend this CPU supports.
    pub fn detect() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Backend::Avx2;
        }
        Backend::Portable
    }

    /// `acc += add - sub`, element-wise.
    #[inline(always)]
    pub fn add_sub(self, acc: &mut [i16], add: &[i8], sub: &[i8]) {
        assert!(add.len() == acc.len() && sub.len() == acc.len());
        match self {
            Backend::Portable => portable::add_sub(acc, add, sub),
            // SAFETY: `Avx2` is only chosen when the CPU has AVX2; lengths were checked.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => unsafe { avx2::add_sub(acc, add, sub) },
        }
    }

    /// `acc += add`, element-wise.
    #[inline(always)]
    pub fn add(self, acc: &mut [i16], add: &[i8]) {
        assert!(add.len() == acc.len());
        match self {
            Backend::Portable => portable::add(acc, add),
            // SAFETY: as in `add_sub`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => unsafe { avx2::add(acc, add) },
        }
    }

    /// `Σ clamp(acc[i], 0, ceiling) · weights[i]`.
    #[inline(always)]
    pub fn clipped_dot(self, acc: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        assert!(weights.len() == acc.len());
        match self {
            Backend::Portable => portable::clipped_dot(acc, weights, ceiling),
            // SAFETY: as in `add_sub`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => unsafe { avx2::clipped_dot(acc, weights, ceiling) },
        }
    }

    /// `Σ v · (v · weights[i])` with `v = clamp(acc[i], 0, ceiling)` and the inner product
    /// kept to 16 bits (wrapping): exact when `|v · weights[i]| < 2¹⁵`, which the net file
    /// check ensures; the sum wraps in `i32`.
    #[inline(always)]
    pub fn squared_clipped_dot(self, acc: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        assert!(weights.len() == acc.len());
        match self {
            Backend::Portable => portable::squared_clipped_dot(acc, weights, ceiling),
            // SAFETY: as in `add_sub`.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => unsafe { avx2::squared_clipped_dot(acc, weights, ceiling) },
        }
    }
}

mod portable {
    pub fn add_sub(acc: &mut [i16], add: &[i8], sub: &[i8]) {
        for ((a, &p), &m) in acc.iter_mut().zip(add).zip(sub) {
            *a = a.wrapping_add(i16::from(p)).wrapping_sub(i16::from(m));
        }
    }

    pub fn add(acc: &mut [i16], add: &[i8]) {
        for (a, &p) in acc.iter_mut().zip(add) {
            *a = a.wrapping_add(i16::from(p));
        }
    }

    pub fn clipped_dot(acc: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        acc.iter()
            .zip(weights)
            .map(|(&a, &w)| i32::from(a.clamp(0, ceiling)) * i32::from(w))
            .sum()
    }

    pub fn squared_clipped_dot(acc: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        acc.iter().zip(weights).fold(0i32, |sum, (&a, &w)| {
            let v = a.clamp(0, ceiling);
            sum.wrapping_add(i32::from(v.wrapping_mul(w)) * i32::from(v))
        })
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    const LANES: usize = 16;

    /// The 16 `i8` at `row`, sign-extended to `i16` lanes.
    ///
    /// # Safety
    /// The CPU must support AVX2; `row` must point at 16 readable bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn widen(row: *const i8) -> __m256i {
        _mm256_cvtepi8_epi16(_mm_loadu_si128(row as *const __m128i))
    }

    /// # Safety
    /// The CPU must support AVX2; `add` and `sub` as long as `acc`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_sub(acc: &mut [i16], add: &[i8], sub: &[i8]) {
        let chunks = acc.len() / LANES;
        for i in 0..chunks {
            let a = acc.as_mut_ptr().add(i * LANES) as *mut __m256i;
            let p = widen(add.as_ptr().add(i * LANES));
            let m = widen(sub.as_ptr().add(i * LANES));
            let v = _mm256_sub_epi16(_mm256_add_epi16(_mm256_loadu_si256(a), p), m);
            _mm256_storeu_si256(a, v);
        }
        let done = chunks * LANES;
        super::portable::add_sub(&mut acc[done..], &add[done..], &sub[done..]);
    }

    /// # Safety
    /// The CPU must support AVX2; `add` as long as `acc`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add(acc: &mut [i16], add: &[i8]) {
        let chunks = acc.len() / LANES;
        for i in 0..chunks {
            let a = acc.as_mut_ptr().add(i * LANES) as *mut __m256i;
            let p = widen(add.as_ptr().add(i * LANES));
            _mm256_storeu_si256(a, _mm256_add_epi16(_mm256_loadu_si256(a), p));
        }
        let done = chunks * LANES;
        super::portable::add(&mut acc[done..], &add[done..]);
    }

    /// # Safety
    /// The CPU must support AVX2; `weights` as long as `acc`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn clipped_dot(acc: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        let chunks = acc.len() / LANES;
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(ceiling));
        let mut sum = _mm256_setzero_si256();
        for i in 0..chunks {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i * LANES) as *const __m256i);
            let w = _mm256_loadu_si256(weights.as_ptr().add(i * LANES) as *const __m256i);
            let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // Pairs of i16 products summed into i32 lanes: exact for a ceiling and weights
            // within i16.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, w));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        let done = chunks * LANES;
        lanes.iter().sum::<i32>()
            + super::portable::clipped_dot(&acc[done..], &weights[done..], ceiling)
    }

    /// # Safety
    /// The CPU must support AVX2; `weights` as long as `acc`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn squared_clipped_dot(acc: &[i16], weights: &[i16], ceiling: i16) -> i32 {
        let chunks = acc.len() / LANES;
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(ceiling));
        let mut sum = _mm256_setzero_si256();
        for i in 0..chunks {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i * LANES) as *const __m256i);
            let w = _mm256_loadu_si256(weights.as_ptr().add(i * LANES) as *const __m256i);
            let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // v·w in 16 bits (low half, as the portable `wrapping_mul`), then · v in pairs.
            let product = _mm256_mullo_epi16(clipped, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(product, clipped));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        let done = chunks * LANES;
        lanes
            .iter()
            .fold(0i32, |s, &l| s.wrapping_add(l))
            .wrapping_add(super::portable::squared_clipped_dot(
                &acc[done..],
                &weights[done..],
                ceiling,
            ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_detected_backend_equals_the_portable_one(
            acc in prop::collection::vec(any::<i16>(), 0..80),
            seed in any::<u64>(),
        ) {
            let n = acc.len();
            // Deterministic pseudo-random rows from the seed (a plain LCG is enough here).
            let mut state = seed | 1;
            let mut row = || -> Vec<i16> {
                (0..n).map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (state >> 48) as i16
                }).collect()
            };
            let (add, sub, raw) = (row(), row(), row());
            let narrow = |r: &[i16]| r.iter().map(|&x| (x >> 8) as i8).collect::<Vec<i8>>();
            let (add, sub) = (narrow(&add), narrow(&sub));
            let backend = Backend::detect();
            let (mut a, mut b) = (acc.clone(), acc.clone());
            backend.add_sub(&mut a, &add, &sub);
            Backend::Portable.add_sub(&mut b, &add, &sub);
            prop_assert_eq!(&a, &b);
            backend.add(&mut a, &add);
            Backend::Portable.add(&mut b, &add);
            prop_assert_eq!(&a, &b);
            // Weights as the net file allows them (|w| < 256), so sums stay within i32.
            let w: Vec<i16> = raw.iter().map(|x| x >> 8).collect();
            prop_assert_eq!(
                backend.clipped_dot(&a, &w, 255),
                Backend::Portable.clipped_dot(&b, &w, 255)
            );
            prop_assert_eq!(
                backend.squared_clipped_dot(&a, &w, 255),
                Backend::Portable.squared_clipped_dot(&b, &w, 255)
            );
            // Any weights: out-of-range products wrap alike in both.
            prop_assert_eq!(
                backend.squared_clipped_dot(&a, &raw, 255),
                Backend::Portable.squared_clipped_dot(&b, &raw, 255)
            );
        }
    }
}
