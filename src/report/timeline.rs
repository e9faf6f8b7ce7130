//! Swimlane timelines for the HTML page: one lane per host, a time axis with readable ticks (the
//! date where the day changes), marks that never leave the axis, marks too close to tell apart
//! gathered into a cluster that spreads out on click, and cause → effect arrows. Everything is
//! placed here, so the SVG is static and the page's script only toggles classes.

use crate::when::DisplayZone;
use maud::{Markup, html};
use oztrace_rules::Role;

/// The viewBox width; the SVG scales to the page's width.
const WIDTH: f64 = 1200.0;
/// Room above the first lane for two lines of tick labels (date, time).
const AXIS_TOP: f64 = 40.0;
const LANE: f64 = 40.0;
/// The extra row of a lane where its clusters spread out.
const SPREAD_ROW: f64 = 30.0;
/// Half the widest mark: the plot keeps this margin inside the axis at both ends.
const MARK_RADIUS: f64 = 9.0;
/// Marks closer than this on one lane become a cluster.
const MIN_GAP: f64 = 16.0;
/// Spacing of a spread-out cluster's marks.
const SPREAD_STEP: f64 = 18.0;
/// Horizontal room a tick label needs.
const TICK_ROOM: f64 = 110.0;

pub struct Lane {
    pub label: String,
    /// A second, smaller line under the label (components on the overview).
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkShape {
    Role(Role),
    /// A finding on the overview, by severity.
    Finding(&'static str),
}

pub struct Mark {
    pub lane: usize,
    pub ts: i64,
    pub shape: MarkShape,
    pub id: String,
    /// The id of the element it pairs with for the hover highlight (its evidence row).
    pub pair: Option<String>,
    /// Where a click goes (the finding, from the overview).
    pub href: Option<String>,
    pub title: String,
}

struct Placed {
    mark: Mark,
    x: f64,
    y: f64,
}

enum Group {
    Single(Placed),
    Cluster {
        lane: usize,
        x: f64,
        y: f64,
        members: Vec<Placed>,
    },
}

struct Tick {
    x: f64,
    time: String,
    date: Option<String>,
}

pub struct Timeline {
    id: String,
    height: f64,
    left: f64,
    right: f64,
    lanes: Vec<(Lane, f64)>,
    ticks: Vec<Tick>,
    bands: Vec<(f64, f64, f64)>,
    groups: Vec<Group>,
    links: Vec<(f64, f64, f64, f64, String)>,
}

/// Nice tick intervals, in milliseconds.
const INTERVALS: &[i64] = &[
    1,
    2,
    5,
    10,
    20,
    50,
    100,
    200,
    500,
    1_000,
    2_000,
    5_000,
    10_000,
    15_000,
    30_000,
    60_000,
    120_000,
    300_000,
    600_000,
    900_000,
    1_800_000,
    3_600_000,
    7_200_000,
    10_800_000,
    21_600_000,
    43_200_000,
    86_400_000,
    172_800_000,
    604_800_000,
    2_592_000_000,
];

impl Timeline {
    /// Lays out `marks` on `lanes`; `bands` are (lane, from, to) spans drawn under the marks,
    /// `links` (from id, to id, reason) arrows between marks. `None` without any time.
    pub fn layout(
        id: &str,
        lanes: Vec<Lane>,
        marks: Vec<Mark>,
        bands: &[(usize, i64, i64)],
        links: &[(String, String, String)],
        zone: &DisplayZone,
    ) -> Option<Timeline> {
        let times = marks
            .iter()
            .map(|m| m.ts)
            .chain(bands.iter().flat_map(|b| [b.1, b.2]));
        let (mut t0, mut t1) =
            times.fold((i64::MAX, i64::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
        if t0 > t1 {
            return None;
        }
        if t0 == t1 {
            t0 -= 1000;
            t1 += 1000;
        }
        let label_chars = lanes
            .iter()
            .map(|l| {
                (l.label.chars().count() as f64 * 7.4).max(l.detail.chars().count() as f64 * 6.0)
            })
            .fold(0.0, f64::max);
        let label_width = (label_chars + 16.0).clamp(56.0, 380.0);
        let left = label_width + 10.0;
        let right = WIDTH - 16.0;
        let plot = (right - left - 2.0 * MARK_RADIUS).max(1.0);
        let span = (t1 - t0) as f64;
        let x_of = |ts: i64| left + MARK_RADIUS + (ts - t0) as f64 / span * plot;

        // Marks per lane, left to right, gathered into clusters.
        let mut by_lane: Vec<Vec<Placed>> = (0..lanes.len()).map(|_| Vec::new()).collect();
        for mark in marks {
            if mark.lane < by_lane.len() {
                let x = x_of(mark.ts);
                by_lane[mark.lane].push(Placed { mark, x, y: 0.0 });
            }
        }
        let mut y = AXIS_TOP;
        let mut lane_rows = Vec::new();
        let mut groups = Vec::new();
        for (lane_index, (lane, mut placed)) in lanes.into_iter().zip(by_lane).enumerate() {
            placed.sort_by(|a, b| a.x.total_cmp(&b.x));
            let clusters = cluster(placed);
            let spreads = clusters.iter().any(|c| c.len() > 1);
            let lane_y = y + LANE / 2.0;
            for mut members in clusters {
                if members.len() == 1 {
                    let mut single = members.remove(0);
                    single.y = lane_y;
                    groups.push(Group::Single(single));
                    continue;
                }
                let centre = members.iter().map(|m| m.x).sum::<f64>() / members.len() as f64;
                let step = SPREAD_STEP.min(plot / members.len() as f64);
                let width = step * (members.len() - 1) as f64;
                let first = (centre - width / 2.0)
                    .max(left + MARK_RADIUS)
                    .min(right - MARK_RADIUS - width);
                for (k, m) in members.iter_mut().enumerate() {
                    m.x = first + step * k as f64;
                    m.y = lane_y + SPREAD_ROW;
                }
                groups.push(Group::Cluster {
                    lane: lane_index,
                    x: centre,
                    y: lane_y,
                    members,
                });
            }
            lane_rows.push((lane, lane_y));
            y += LANE + if spreads { SPREAD_ROW } else { 0.0 };
        }
        let band_rows = bands
            .iter()
            .filter_map(|&(lane, from, to)| {
                let (_, lane_y) = lane_rows.get(lane)?;
                Some((*lane_y, x_of(from), x_of(to)))
            })
            .collect();
        // Arrows join what is visible: a mark, or the cluster that holds it.
        let visible = |id: &str| -> Option<(f64, f64)> {
            groups.iter().find_map(|g| match g {
                Group::Single(p) if p.mark.id == id => Some((p.x, p.y)),
                Group::Cluster { x, y, members, .. } if members.iter().any(|m| m.mark.id == id) => {
                    Some((*x, *y))
                }
                _ => None,
            })
        };
        let links = links
            .iter()
            .filter_map(|(from, to, reason)| {
                let (x1, y1) = visible(from)?;
                let (x2, y2) = visible(to)?;
                ((x1, y1) != (x2, y2)).then(|| (x1, y1, x2, y2, reason.clone()))
            })
            .collect();
        Some(Timeline {
            id: id.to_string(),
            height: y + 8.0,
            left,
            right,
            lanes: lane_rows,
            ticks: ticks(t0, t1, left + MARK_RADIUS, plot, zone),
            bands: band_rows,
            groups,
            links,
        })
    }
}

/// Consecutive marks closer than [`MIN_GAP`] to the one before them form one cluster.
fn cluster(placed: Vec<Placed>) -> Vec<Vec<Placed>> {
    let mut clusters: Vec<Vec<Placed>> = Vec::new();
    for p in placed {
        match clusters.last_mut() {
            Some(last) if last.last().is_some_and(|q| p.x - q.x < MIN_GAP) => last.push(p),
            _ => clusters.push(vec![p]),
        }
    }
    clusters
}

/// Ticks at a round interval in the display zone, as many as fit; the date is printed on the
/// first tick and wherever the day changes.
fn ticks(t0: i64, t1: i64, x0: f64, plot: f64, zone: &DisplayZone) -> Vec<Tick> {
    let span = (t1 - t0).max(1);
    let most = ((plot / TICK_ROOM).floor() as i64).max(2);
    let interval = INTERVALS
        .iter()
        .copied()
        .find(|i| span / i <= most)
        .unwrap_or(INTERVALS[INTERVALS.len() - 1]);
    let day_or_more = interval >= 86_400_000;
    // Round multiples of the interval in local time (days start at local midnight).
    let offset = zone.offset_ms(t0);
    let mut t = if day_or_more {
        let midnight = zone.start_of_day(t0);
        if midnight < t0 {
            midnight + 86_400_000
        } else {
            midnight
        }
    } else {
        (t0 + offset).div_euclid(interval) * interval - offset
    };
    if t < t0 {
        t += interval;
    }
    let (seconds, digits) = match interval {
        i if i < 1_000 => (true, 3),
        i if i < 60_000 => (true, 0),
        _ => (false, 0),
    };
    let mut out = Vec::new();
    let mut last_date = String::new();
    while t <= t1 {
        let date = zone.date(t);
        let show_date = date != last_date;
        out.push(Tick {
            x: x0 + (t - t0) as f64 / span as f64 * plot,
            time: if day_or_more {
                String::new()
            } else {
                zone.time_of_day(t, seconds, digits)
            },
            date: show_date.then(|| date.clone()),
        });
        last_date = date;
        t += interval;
    }
    out
}

fn shape(mark: &Mark, x: f64, y: f64) -> Markup {
    match mark.shape {
        MarkShape::Role(Role::Cause) => html! {
            circle.cause cx=(fmt(x)) cy=(fmt(y)) r="6" {}
        },
        MarkShape::Role(Role::Effect) => html! {
            rect.effect x=(fmt(x - 5.0)) y=(fmt(y - 5.0)) width="10" height="10" {}
        },
        MarkShape::Role(Role::Context) => html! {
            circle.context cx=(fmt(x)) cy=(fmt(y)) r="4" {}
        },
        MarkShape::Finding(severity) => html! {
            path class={ "finding sev-" (severity) }
                d=(format!("M {} {} l 7 7 l -7 7 l -7 -7 z", fmt(x), fmt(y - 7.0))) {}
        },
    }
}

fn fmt(v: f64) -> String {
    format!("{v:.1}")
}

fn mark(p: &Placed, lane: usize) -> Markup {
    let body = html! {
        title { (p.mark.title) }
        (shape(&p.mark, p.x, p.y))
    };
    html! {
        @if let Some(href) = &p.mark.href {
            a href=(href) {
                g.mark id=(p.mark.id) data-lane=(lane) tabindex="0" { (body) }
            }
        } @else {
            g.mark id=(p.mark.id) data-pair=[p.mark.pair.as_deref()] data-lane=(lane) tabindex="0" {
                (body)
            }
        }
    }
}

pub fn svg(t: &Timeline, label: &str) -> Markup {
    let arrow = format!("arrow-{}", t.id);
    let axis_y = AXIS_TOP - 4.0;
    html! {
        svg.lanes id=(t.id) viewBox=(format!("0 0 {WIDTH} {}", fmt(t.height)))
            role="img" aria-label=(label) data-left=(fmt(t.left)) data-right=(fmt(t.right)) {
            defs {
                marker id=(arrow) viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7"
                    markerHeight="7" orient="auto-start-reverse" {
                    path.arrowhead d="M 0 0 L 10 5 L 0 10 z" {}
                }
            }
            @for tick in &t.ticks {
                line.grid x1=(fmt(tick.x)) y1=(fmt(axis_y)) x2=(fmt(tick.x)) y2=(fmt(t.height - 4.0)) {}
                @if let Some(date) = &tick.date {
                    text.tick.date x=(fmt(tick.x)) y="12" text-anchor="middle" { (date) }
                }
                text.tick x=(fmt(tick.x)) y="26" text-anchor="middle" { (tick.time) }
            }
            line.axis x1=(fmt(t.left)) y1=(fmt(axis_y)) x2=(fmt(t.right)) y2=(fmt(axis_y)) {}
            @for (lane, y) in &t.lanes {
                text.lane-label x="6" y=(fmt(y + 4.0)) { (lane.label) }
                @if !lane.detail.is_empty() {
                    text.lane-detail x="6" y=(fmt(y + 16.0)) { (lane.detail) }
                }
                line.lane x1=(fmt(t.left)) y1=(fmt(*y)) x2=(fmt(t.right)) y2=(fmt(*y)) {}
            }
            @for (y, x1, x2) in &t.bands {
                rect.band x=(fmt(*x1)) y=(fmt(y - 5.0)) width=(fmt((x2 - x1).max(2.0))) height="10" {}
            }
            @for (x1, y1, x2, y2, reason) in &t.links {
                path.link d=(link_path(*x1, *y1, *x2, *y2)) marker-end=(format!("url(#{arrow})")) {
                    title { (reason) }
                }
            }
            @for group in &t.groups {
                @match group {
                    Group::Single(p) => { (mark(p, p.mark.lane)) }
                    Group::Cluster { lane, x, y, members } => {
                        g class={ "cluster " (strongest(members)) } tabindex="0" data-lane=(lane) {
                            title { (members.len()) " marks within a few pixels: click to spread them out" }
                            g.badge {
                                circle cx=(fmt(*x)) cy=(fmt(*y)) r=(fmt(MARK_RADIUS)) {}
                                text x=(fmt(*x)) y=(fmt(y + 4.0)) text-anchor="middle" { (members.len()) }
                            }
                            g.members {
                                @for m in members {
                                    line.spoke x1=(fmt(*x)) y1=(fmt(y + MARK_RADIUS)) x2=(fmt(m.x)) y2=(fmt(m.y - 6.0)) {}
                                }
                                @for m in members { (mark(m, *lane)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The class of a cluster's ring: the most telling mark it holds (cause, effect, context, or
/// the highest severity on the overview).
fn strongest(members: &[Placed]) -> &'static str {
    let rank = |shape: MarkShape| match shape {
        MarkShape::Role(Role::Cause) | MarkShape::Finding("critical" | "high") => 0,
        MarkShape::Role(Role::Effect) | MarkShape::Finding("medium") => 1,
        _ => 2,
    };
    match members.iter().map(|m| rank(m.mark.shape)).min() {
        Some(0) => "holds-cause",
        Some(1) => "holds-effect",
        _ => "holds-context",
    }
}

/// A curve from a cause to its effect that stops at the edge of the effect's mark; same-lane
/// links arc above the lane.
fn link_path(x1: f64, y1: f64, x2: f64, y2: f64) -> String {
    let (x2, y2) = if (y1 - y2).abs() < f64::EPSILON {
        (x2, y2 - 7.0)
    } else {
        (x2, y2 + 7.0_f64.copysign(y1 - y2))
    };
    if (y1 - y2).abs() < 8.0 {
        let lift = y1 - LANE * 0.45;
        format!(
            "M {} {} C {} {}, {} {}, {} {}",
            fmt(x1),
            fmt(y1),
            fmt(x1),
            fmt(lift),
            fmt(x2),
            fmt(lift),
            fmt(x2),
            fmt(y2)
        )
    } else {
        let mid = (y1 + y2) / 2.0;
        format!(
            "M {} {} C {} {}, {} {}, {} {}",
            fmt(x1),
            fmt(y1),
            fmt(x1),
            fmt(mid),
            fmt(x2),
            fmt(mid),
            fmt(x2),
            fmt(y2)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oztrace_parser::time::parse_rfc3339;

    fn at(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    fn mark(lane: usize, ts: i64, id: &str) -> Mark {
        Mark {
            lane,
            ts,
            shape: MarkShape::Role(Role::Cause),
            id: id.into(),
            pair: None,
            href: None,
            title: id.into(),
        }
    }

    fn lane(label: &str) -> Lane {
        Lane {
            label: label.into(),
            detail: String::new(),
        }
    }

    #[test]
    fn ticks_are_round_and_carry_the_date_where_the_day_changes() {
        let zone = DisplayZone::default();
        let ticks = ticks(
            at("2026-09-14T22:47:13.512Z"),
            at("2026-09-15T01:12:40.001Z"),
            100.0,
            1000.0,
            &zone,
        );
        let labels: Vec<(&str, Option<&str>)> = ticks
            .iter()
            .map(|t| (t.time.as_str(), t.date.as_deref()))
            .collect();
        assert_eq!(
            labels,
            [
                ("23:00", Some("2026-09-14")),
                ("23:15", None),
                ("23:30", None),
                ("23:45", None),
                ("00:00", Some("2026-09-15")),
                ("00:15", None),
                ("00:30", None),
                ("00:45", None),
                ("01:00", None),
            ]
        );
        // In Berlin (+02:00) the same span starts the next day.
        let berlin = DisplayZone::parse("Europe/Berlin").unwrap();
        let ticks = super::ticks(
            at("2026-09-14T22:47:13.512Z"),
            at("2026-09-14T22:47:13.600Z"),
            100.0,
            1000.0,
            &berlin,
        );
        assert_eq!(ticks[0].date.as_deref(), Some("2026-09-15"));
        assert_eq!(ticks[0].time, "00:47:13.520");
        assert!(ticks.iter().skip(1).all(|t| t.date.is_none()));
    }

    #[test]
    fn close_marks_cluster_and_every_mark_stays_inside_the_axis() {
        // Ten causes within 80 ms at the end of a 10-minute span, and one far earlier.
        let start = at("2026-09-14T07:00:00Z");
        let mut marks = vec![mark(0, start, "early")];
        for k in 0..10 {
            marks.push(mark(0, start + 600_000 + k * 8, &format!("burst{k}")));
        }
        marks.push(mark(1, start + 300_000, "other"));
        let links = vec![("early".to_string(), "burst3".to_string(), "r".to_string())];
        let t = Timeline::layout(
            "t",
            vec![lane("a-very-long-host-name.example.com"), lane("dn2")],
            marks,
            &[],
            &links,
            &DisplayZone::default(),
        )
        .unwrap();
        assert!(
            t.left > 33.0 * 7.0,
            "the label column fits the longest host"
        );
        let mut singles = 0;
        let mut clusters = 0;
        for g in &t.groups {
            match g {
                Group::Single(p) => {
                    singles += 1;
                    assert!(p.x - 6.0 >= t.left && p.x + 6.0 <= t.right);
                }
                Group::Cluster { x, members, .. } => {
                    clusters += 1;
                    assert_eq!(members.len(), 10);
                    assert!(x + MARK_RADIUS <= t.right && x - MARK_RADIUS >= t.left);
                    for m in members {
                        assert!(m.x - 6.0 >= t.left && m.x + 6.0 <= t.right, "{}", m.x);
                    }
                    let xs: Vec<f64> = members.iter().map(|m| m.x).collect();
                    assert!(xs.windows(2).all(|w| w[1] - w[0] >= 12.0), "spread apart");
                }
            }
        }
        assert_eq!((singles, clusters), (2, 1));
        // The arrow runs from the early mark to the cluster that holds its effect.
        assert_eq!(t.links.len(), 1);
    }
}
