//! Asking for memory before it is read: the stage after the readers reads what their threads
//! wrote, in another order than they wrote it, and each read that waits for memory costs more
//! than the work done with it.

/// Starts fetching the cache line that holds `item` into every cache level, without waiting for
/// it: a later read of `item` then finds it near. Nothing else changes.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees, and `item` is a live reference.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// [`prefetch`] of every cache line `items` spans.
pub(crate) fn prefetch_all<T>(items: &[T]) {
    let per_line = (64 / std::mem::size_of::<T>().max(1)).max(1);
    for item in items.iter().step_by(per_line) {
        prefetch(item);
    }
}
