//! The work split over rayon's pool after the merge: the graph beside the replay, the linkers,
//! the machines, the rules. On a pool of one thread the caller does it in turn instead: the
//! trace it has just built is in its core's cache, and handing the work to the pool's only
//! thread would move every line of it to another core for nothing (0.5-1 ms of a 1 GB bundle's
//! 24 ms stage).

use rayon::prelude::*;

/// Whether the work is split over the pool: it has more than one thread.
fn split() -> bool {
    rayon::current_num_threads() > 1
}

/// `a` and `b`, at once on the pool or in turn here.
pub fn join<RA: Send, RB: Send>(
    a: impl FnOnce() -> RA + Send,
    b: impl FnOnce() -> RB + Send,
) -> (RA, RB) {
    if split() {
        rayon::join(a, b)
    } else {
        (a(), b())
    }
}

/// `each` of `items`, in their order.
pub fn map<T: Sync, R: Send>(items: &[T], each: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    if split() {
        items.par_iter().map(each).collect()
    } else {
        items.iter().map(each).collect()
    }
}

/// `each` of `items`, taken, in their order.
pub fn map_owned<T: Send, R: Send>(items: Vec<T>, each: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    if split() {
        items.into_par_iter().map(each).collect()
    } else {
        items.into_iter().map(each).collect()
    }
}

/// `each` of `items`, which it may change, in their order.
pub fn map_mut<T: Send, R: Send>(
    items: &mut [T],
    each: impl Fn(&mut T) -> R + Sync + Send,
) -> Vec<R> {
    if split() {
        items.par_iter_mut().map(each).collect()
    } else {
        items.iter_mut().map(each).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_the_items_order_on_one_thread_or_several() {
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let items: Vec<u32> = (0..1000).collect();
                assert_eq!(
                    map(&items, |x| x * 2),
                    (0..2000).step_by(2).collect::<Vec<_>>()
                );
                assert_eq!(
                    map_owned(items.clone(), |x| x + 1),
                    (1..1001).collect::<Vec<_>>()
                );
                let mut changed = items.clone();
                let old = map_mut(&mut changed, |x| {
                    *x += 1;
                    *x - 1
                });
                assert_eq!(old, items);
                assert_eq!(changed, (1..1001).collect::<Vec<_>>());
                assert_eq!(join(|| 1, || "two"), (1, "two"));
            });
        }
    }
}
