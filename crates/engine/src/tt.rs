//! The transposition table: a fixed-size array of slots, shared between search threads.
//!
//! Each slot holds two atomic words, the packed entry and the key XOR the entry; a reader
//! accepts the entry only when both agree, so a torn write by another thread reads as a miss
//! instead of a wrong move (the lockless scheme of Hyatt and Mann).

use std::alloc::{self, Layout};
use std::ops::Deref;
use std::ptr::NonNull;
use std::slice;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use ataxx::{Move, Square};

/// What a stored score says about the true score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
    /// The true score.
    Exact,
}

/// One stored search result.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    pub mv: Option<Move>,
    /// In table form (see [`crate::score::to_table`]).
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const BYTES_PER_SLOT: usize = 16;

/// A transposition table of a given size in MiB.
///
/// ```
/// use ataxx::Position;
/// use engine::tt::{Bound, Entry, TranspositionTable};
/// let tt = TranspositionTable::new(1);
/// let key = Position::startpos().hash();
/// let entry = Entry { mv: Some("f2".parse().unwrap()), score: 25, depth: 6, bound: Bound::Exact };
/// tt.store(key, entry);
/// assert_eq!(tt.probe(key), Some(entry));
/// assert_eq!(tt.probe(key ^ 1), None);
/// ```
pub struct TranspositionTable {
    slots: Slots,
    generation: AtomicU8,
}

/// Size of a transparent huge page on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// The slot array, zeroed, in memory aligned to 2 MiB and (on Linux) marked for transparent huge
/// pages: probes land anywhere in the table, and with 4 KiB pages most of them would miss the
/// TLB as well as the cache.
struct Slots {
    ptr: NonNull<[AtomicU64; 2]>,
    len: usize,
}

// SAFETY: `Slots` owns its memory and hands out only shared references to atomics.
unsafe impl Send for Slots {}
unsafe impl Sync for Slots {}

impl Slots {
    fn layout(len: usize) -> Layout {
        let size = len * BYTES_PER_SLOT;
        let align = if size >= HUGE_PAGE { HUGE_PAGE } else { 64 };
        Layout::from_size_align(size, align).expect("a table size that fits in memory")
    }

    /// `len` (at least 1) zeroed slots.
    fn new(len: usize) -> Slots {
        assert!(len > 0);
        let layout = Slots::layout(len);
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { alloc::alloc(layout) };
        let Some(ptr) = NonNull::new(raw.cast::<[AtomicU64; 2]>()) else {
            alloc::handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            // Before the first touch, so that the pages are faulted in huge. Advice only: if
            // the kernel declines, the table works the same on small pages.
            // SAFETY: the range is this allocation.
            unsafe { libc::madvise(raw.cast(), layout.size(), libc::MADV_HUGEPAGE) };
        }
        // SAFETY: the allocation holds `layout.size()` bytes, and all-zero bytes are valid atomics.
        unsafe { raw.write_bytes(0, layout.size()) };
        Slots { ptr, len }
    }
}

impl Deref for Slots {
    type Target = [[AtomicU64; 2]];

    #[inline(always)]
    fn deref(&self) -> &[[AtomicU64; 2]] {
        // SAFETY: `len` initialised slots live at `ptr` for as long as `self`.
        unsafe { slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        // SAFETY: allocated in `Slots::new` with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), Slots::layout(self.len)) };
    }
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least one slot).
    pub fn new(mib: usize) -> TranspositionTable {
        let len = (mib.max(1) << 20) / BYTES_PER_SLOT;
        TranspositionTable {
            slots: Slots::new(len),
            generation: AtomicU8::new(0),
        }
    }

    /// Forget every entry.
    pub fn clear(&self) {
        for [check, data] in self.slots.iter() {
            check.store(0, Relaxed);
            data.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// Start a new search: entries of older searches become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        // Multiply-shift maps the key onto any table length without a power-of-two size.
        let index = ((u128::from(key) * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    /// Ask the processor to start loading the slot of `key`, so that a probe soon after does
    /// not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot: *const [AtomicU64; 2] = self.slot(key);
            // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [check, data] = self.slot(key);
        let data = data.load(Relaxed);
        if data == 0 || check.load(Relaxed) ^ data != key {
            return None;
        }
        Some(unpack(data))
    }

    /// Store an entry, keeping a deeper entry of the same search for another position.
    pub fn store(&self, key: u64, entry: Entry) {
        let [check, data] = self.slot(key);
        let old = data.load(Relaxed);
        let generation = self.generation.load(Relaxed);
        let same_key = old != 0 && check.load(Relaxed) ^ old == key;
        let old_depth = (old >> 32 & 0xFF) as i32;
        let old_generation = (old >> 42) as u8;
        let mv = match (entry.mv, same_key) {
            // Keep the old move when the new result has none.
            (None, true) => (old >> 16 & 0xFFFF) as u16,
            (mv, _) => mv.map_or(0, encode_move),
        };
        if old != 0 && !same_key && old_generation == generation && old_depth > entry.depth + 2 {
            return;
        }
        let new = pack(mv, entry, generation);
        data.store(new, Relaxed);
        check.store(key ^ new, Relaxed);
    }

    /// Permille of the first thousand slots used by the current search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        self.slots
            .iter()
            .take(1000)
            .filter(|[_, data]| {
                let d = data.load(Relaxed);
                d != 0 && (d >> 42) as u8 == generation
            })
            .count() as u32
    }
}

// Layout of the data word: score (16 bits) | move (16) | depth (8) | bound (2) | generation (8),
// plus bit 50 set so a stored entry is never 0.
fn pack(mv: u16, entry: Entry, generation: u8) -> u64 {
    let bound = match entry.bound {
        Bound::Lower => 0u64,
        Bound::Upper => 1,
        Bound::Exact => 2,
    };
    u64::from(entry.score as i16 as u16)
        | u64::from(mv) << 16
        | (entry.depth.clamp(0, 255) as u64) << 32
        | bound << 40
        | u64::from(generation) << 42
        | 1 << 50
}

fn unpack(data: u64) -> Entry {
    Entry {
        score: i32::from(data as u16 as i16),
        mv: decode_move((data >> 16) as u16),
        depth: (data >> 32 & 0xFF) as i32,
        bound: match data >> 40 & 3 {
            0 => Bound::Lower,
            1 => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

const SINGLE: u16 = 1 << 12;
const JUMP: u16 = 2 << 12;
const PASS: u16 = 3 << 12;

/// 16-bit move code; 0 means no move.
fn encode_move(mv: Move) -> u16 {
    match mv {
        Move::Single(to) => SINGLE | u16::from(to.index()),
        Move::Jump { from, to } => JUMP | u16::from(from.index()) << 6 | u16::from(to.index()),
        Move::Pass => PASS,
    }
}

fn decode_move(code: u16) -> Option<Move> {
    let square = |index: u16| Square::new((index & 7) as u8, (index >> 3 & 7) as u8);
    match code & 0xF000 {
        SINGLE => square(code & 63).map(Move::Single),
        JUMP => Some(Move::Jump {
            from: square(code >> 6 & 63)?,
            to: square(code & 63)?,
        }),
        PASS => Some(Move::Pass),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_the_packed_word() {
        let tt = TranspositionTable::new(1);
        for (i, (mv, score, bound)) in [
            (Some("a7c5"), -9_990, Bound::Lower),
            (Some("g1"), 0, Bound::Upper),
            (Some("0000"), 9_990, Bound::Exact),
            (None, -1, Bound::Exact),
        ]
        .into_iter()
        .enumerate()
        {
            let entry = Entry {
                mv: mv.map(|m| m.parse().unwrap()),
                score,
                depth: 3 + i as i32,
                bound,
            };
            let key = 0x1234_5678_9ABC_DEF0 ^ (i as u64) << 40;
            tt.store(key, entry);
            assert_eq!(tt.probe(key), Some(entry));
        }
    }

    #[test]
    fn a_result_without_move_keeps_the_stored_move_of_the_same_position() {
        let tt = TranspositionTable::new(1);
        let mv = Some("c3b5".parse().unwrap());
        tt.store(
            7,
            Entry {
                mv,
                score: 5,
                depth: 4,
                bound: Bound::Lower,
            },
        );
        tt.store(
            7,
            Entry {
                mv: None,
                score: -5,
                depth: 5,
                bound: Bound::Upper,
            },
        );
        assert_eq!(tt.probe(7).unwrap().mv, mv);
        tt.clear();
        assert_eq!(tt.probe(7), None);
    }
}
