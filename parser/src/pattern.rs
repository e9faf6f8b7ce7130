//! log4j / log4j2 ConversionPatterns, compiled with nom into a line matcher.
//!
//! Every layout oztrace knows is written as the ConversionPattern that produces it (see
//! [`crate::layout`]), and `--layout` or a bundle's `log4j.properties` give a pattern the same way,
//! so one matcher serves them all. Variable-width fields are matched against the literal that
//! follows them, with backtracking: a thread name ends at the first `] ` that is followed by a
//! valid level (thread names contain spaces, brackets and trailing spaces), a message at the last
//! ` | ` before an audit throwable, a logger at the first `: ` it can end at.

use crate::source::Level;
use crate::time::LocalTime;
use crate::word::same_bytes;
use memchr::memmem;
use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{is_not, tag, take_while1},
    character::complete::{char, digit1},
    combinator::{map, opt, value},
    multi::many0,
    sequence::{delimited, preceded},
};

/// One element of a compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(String),
    Date(Vec<DatePart>),
    Thread,
    /// `%-5p` pads to the right, `%5p` to the left: both leave up to `width - len` spaces.
    Level {
        width: usize,
    },
    Logger,
    Message,
    Throwable,
    LineNumber,
    /// Conversions whose text oztrace does not use (`%F`, `%M`, `%X{..}`, …): free text.
    Ignored,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DatePart {
    Year,
    Month,
    MonthName,
    Day,
    Hour,
    Minute,
    Second,
    Millis,
    Literal(char),
}

/// A compiled ConversionPattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    source: String,
    tokens: Vec<Token>,
    /// Per token, the searchers of a literal (built once: a searcher is costly to set up, and a
    /// line is searched for a few literals).
    searchers: Vec<Option<LiteralSearchers>>,
    /// The straight-line walk tried before the backtracking matcher, when the pattern's shape
    /// allows one.
    plan: Option<Plan>,
}

/// A literal's searchers, first to last and last to first.
#[derive(Debug, Clone)]
struct LiteralSearchers {
    forward: memmem::Finder<'static>,
    backward: memmem::FinderRev<'static>,
}

impl LiteralSearchers {
    fn new(literal: &str) -> LiteralSearchers {
        LiteralSearchers {
            forward: memmem::Finder::new(literal).into_owned(),
            backward: memmem::FinderRev::new(literal).into_owned(),
        }
    }
}

/// Searchers of the same literal search alike.
impl PartialEq for LiteralSearchers {
    fn eq(&self, other: &LiteralSearchers) -> bool {
        self.forward.needle() == other.forward.needle()
    }
}

impl Eq for LiteralSearchers {}

/// The fields of one header line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header<'a> {
    pub time: Option<LocalTime>,
    pub level: Option<Level>,
    pub thread: Option<&'a str>,
    pub logger: Option<&'a str>,
    pub message: &'a str,
    /// The audit layouts' `%throwable{3}` on the header line (empty on success).
    pub throwable: Option<&'a str>,
}

/// Why a pattern could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read log4j pattern `{pattern}` at column {column}: {reason}")]
pub struct PatternError {
    pub pattern: String,
    pub column: usize,
    pub reason: String,
}

#[derive(Debug, Clone)]
enum Piece<'a> {
    Text(&'a str),
    Conversion {
        left_align: bool,
        width: Option<usize>,
        name: &'a str,
        option: Option<&'a str>,
    },
}

fn parse_pieces(input: &str) -> IResult<&str, Vec<Piece<'_>>> {
    let percent = value(Piece::Text("%"), tag("%%"));
    let text = map(is_not("%"), Piece::Text);
    let conversion = map(
        preceded(
            char('%'),
            (
                opt(char('-')),
                opt(digit1),
                opt(preceded(char('.'), digit1)),
                take_while1(|c: char| c.is_ascii_alphabetic()),
                opt(delimited(char('{'), is_not("}"), char('}'))),
                // A second option block (`%d{pattern}{timezone}`) carries nothing we use.
                opt(delimited(char('{'), is_not("}"), char('}'))),
            ),
        ),
        |(minus, width, _precision, name, option, _): (_, Option<&str>, _, &str, _, _)| {
            Piece::Conversion {
                left_align: minus.is_some(),
                width: width.and_then(|w| w.parse().ok()),
                name,
                option,
            }
        },
    );
    many0(alt((percent, conversion, text))).parse(input)
}

impl Pattern {
    /// Compiles a log4j 1.x / log4j2 ConversionPattern such as `%d{ISO8601} [%t] %p %c: %m%n`.
    pub fn compile(pattern: &str) -> Result<Pattern, PatternError> {
        let error = |rest: &str, reason: &str| PatternError {
            pattern: pattern.to_string(),
            column: pattern.len() - rest.len() + 1,
            reason: reason.to_string(),
        };
        let (rest, pieces) = parse_pieces(pattern).map_err(|_| error(pattern, "syntax"))?;
        if !rest.is_empty() {
            return Err(error(rest, "unterminated conversion"));
        }
        let mut tokens: Vec<Token> = Vec::new();
        for piece in pieces {
            let token = match piece {
                Piece::Text(text) => Token::Literal(text.to_string()),
                Piece::Conversion {
                    left_align,
                    width,
                    name,
                    option,
                } => match name {
                    "d" | "date" => Token::Date(
                        date_parts(option.unwrap_or("ISO8601"))
                            .ok_or_else(|| error(name, "unsupported date format"))?,
                    ),
                    "t" | "thread" | "tn" | "threadName" => Token::Thread,
                    "p" | "level" | "le" => Token::Level {
                        width: width.filter(|_| left_align || width.is_some()).unwrap_or(0),
                    },
                    "c" | "logger" | "lo" | "C" | "class" => Token::Logger,
                    "m" | "msg" | "message" | "mm" => Token::Message,
                    "n" => continue,
                    "L" | "line" => Token::LineNumber,
                    "throwable" | "ex" | "exception" | "xEx" | "xThrowable" | "xException"
                    | "rEx" | "rThrowable" | "rException" | "wEx" | "xwEx" => Token::Throwable,
                    _ => Token::Ignored,
                },
            };
            match (tokens.last_mut(), token) {
                (Some(Token::Literal(prev)), Token::Literal(next)) => prev.push_str(&next),
                (_, token) => tokens.push(token),
            }
        }
        // Trailing spaces of a pattern (`%throwable{3} %n`) are often trimmed by copy and paste.
        if let Some(Token::Literal(last)) = tokens.last_mut() {
            let trimmed = last.trim_end().len();
            last.truncate(trimmed);
            if last.is_empty() {
                tokens.pop();
            }
        }
        if !tokens.contains(&Token::Message) {
            return Err(error("", "the pattern has no %m"));
        }
        let searchers: Vec<_> = tokens
            .iter()
            .map(|token| match token {
                Token::Literal(literal) => Some(LiteralSearchers::new(literal)),
                _ => None,
            })
            .collect();
        let plan = Plan::new(&tokens, &searchers);
        Ok(Pattern {
            source: pattern.to_string(),
            tokens,
            searchers,
            plan,
        })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether lines of this pattern begin with a timestamp.
    pub fn has_time(&self) -> bool {
        self.tokens.iter().any(|t| matches!(t, Token::Date(_)))
    }

    pub fn has_thread(&self) -> bool {
        self.tokens.contains(&Token::Thread)
    }

    /// Matches one line (without its line terminator): with the plan when it decides the line,
    /// else with the backtracking matcher. Both give the same header.
    pub fn parse<'a>(&self, line: &'a str) -> Option<Header<'a>> {
        match self.plan.as_ref().map(|plan| plan.walk(line)) {
            Some(Walk::Matched(header)) => Some(header),
            Some(Walk::NoMatch) => None,
            Some(Walk::Undecided) | None => self.parse_counting_work(line).0,
        }
    }

    /// The backtracking matcher's match, and the work it took: states entered, candidate ends
    /// tried and bytes searched. Matching is linear in the line length; tests assert it on
    /// growing lines.
    pub fn parse_counting_work<'a>(&self, line: &'a str) -> (Option<Header<'a>>, u64) {
        let mut matcher = Matcher {
            pattern: self,
            line,
            content_end: line.trim_end().len(),
            line_end: line.trim_end_matches(['\r', '\n']).len(),
            header: Header::default(),
            dead: Vec::new(),
            logger_run: None,
            work: 0,
            budget: WORK_BASE + WORK_PER_BYTE * line.len() as u64,
        };
        let matched = matcher.at(0, 0);
        (matched.then_some(matcher.header), matcher.work)
    }

    /// Whether every token after `index` may print nothing (an empty throwable).
    fn only_optional_after(&self, index: usize) -> bool {
        self.tokens[index + 1..]
            .iter()
            .all(|t| matches!(t, Token::Throwable | Token::Ignored))
    }
}

/// Work allowed per byte of a line, plus a constant. Matching stays far below it on any line
/// (see the tests); it only bounds a custom pattern shape the bookkeeping does not foresee.
const WORK_PER_BYTE: u64 = 64;
const WORK_BASE: u64 = 4096;
/// Spaces before a level (`%5p` right-aligns), and the longest level word (`WARNING`).
const MAX_LEVEL_LEADING: usize = 8;
const MAX_LEVEL_WORD: usize = 8;
/// Digits of a `%L` line number.
const MAX_LINE_DIGITS: usize = 10;

/// One match of a line against a pattern: a backtracking search over the end of each variable
/// field, made linear by remembering which ends were tried in vain.
struct Matcher<'p, 'a> {
    pattern: &'p Pattern,
    line: &'a str,
    /// Where the line's trailing whitespace starts.
    content_end: usize,
    /// Where its trailing `\r` / `\n` start.
    line_end: usize,
    header: Header<'a>,
    /// Per token index, ends of that (variable) field from which the rest of the pattern failed.
    dead: Vec<Option<DeadEnds>>,
    /// The last run of logger bytes measured: (start, end).
    logger_run: Option<(usize, usize)>,
    work: u64,
    budget: u64,
}

/// An inclusive range of ends of one variable field from which the rest of the pattern cannot
/// follow. Whether it can depends on the end alone, not on where the field started, so what one
/// start position learnt holds for every other: no byte is searched twice for the same field.
#[derive(Debug, Clone, Copy)]
struct DeadEnds {
    from: usize,
    to: usize,
}

impl DeadEnds {
    fn contains(&self, end: usize) -> bool {
        (self.from..=self.to).contains(&end)
    }
}

impl<'a> Matcher<'_, 'a> {
    fn spend(&mut self, amount: u64) -> bool {
        self.work += amount;
        self.work <= self.budget
    }

    fn at(&mut self, index: usize, pos: usize) -> bool {
        if !self.spend(1) {
            return false;
        }
        let pattern = self.pattern;
        let line = self.line;
        let Some(token) = pattern.tokens.get(index) else {
            return pos >= self.content_end;
        };
        let rest = &line[pos..];
        match token {
            Token::Literal(lit) => {
                if rest.starts_with(lit.as_str()) {
                    return self.at(index + 1, pos + lit.len());
                }
                // A line may end early with its trailing spaces trimmed (`|  ` → `|`) when
                // nothing but an empty throwable would follow.
                let trimmed = lit.trim_end();
                pattern.only_optional_after(index)
                    && trimmed.len() < lit.len()
                    && &line[pos..self.content_end.max(pos)] == trimmed
            }
            Token::Date(parts) => match parse_date(parts, rest) {
                Some((time, used)) => {
                    self.header.time = is_dated(parts).then_some(time);
                    self.at(index + 1, pos + used)
                }
                None => false,
            },
            Token::Level { width } => {
                let Some((level, end, spaces)) = read_level(line, pos, *width) else {
                    return false;
                };
                self.header.level = Some(level);
                (0..=spaces).rev().any(|pad| self.at(index + 1, end + pad))
            }
            Token::LineNumber => {
                let digits = line_number_digits(rest);
                digits > 0 && self.at(index + 1, pos + digits)
            }
            Token::Thread | Token::Logger | Token::Message | Token::Throwable | Token::Ignored => {
                self.variable(index, token, pos)
            }
        }
    }

    /// A variable-width field: tries the ends at which the literal after it can start, first
    /// to last (last to first for the greedy message and throwable), skipping ends already known
    /// to fail.
    fn variable(&mut self, index: usize, token: &Token, pos: usize) -> bool {
        let pattern = self.pattern;
        let line = self.line;
        let (lit, searchers) = match (
            pattern.tokens.get(index + 1),
            pattern.searchers.get(index + 1),
        ) {
            (None, _) => {
                let end = self.line_end.max(pos);
                return self.accept(index, token, pos, end);
            }
            (Some(Token::Literal(lit)), Some(Some(searchers))) => (lit.as_str(), searchers),
            // Two variable fields with nothing between them cannot be told apart.
            _ => return false,
        };
        // A logger is a non-empty run of logger bytes: its end lies inside the run.
        let (first, last) = if *token == Token::Logger {
            let run_end = self.logger_run_end(pos);
            (pos + 1, run_end)
        } else {
            (pos, line.len())
        };
        if first > last {
            return false;
        }
        // A line whose trailing spaces were trimmed can end where the literal would start (the
        // literal trimmed only then: this runs for most fields of every line).
        let tail = &line[pos..self.content_end.max(pos)];
        let trimmed_end = (pattern.only_optional_after(index + 1))
            .then(|| lit.trim_end())
            .filter(|trimmed| trimmed.len() < lit.len() && tail.ends_with(trimmed))
            .map(|trimmed| pos + tail.len() - trimmed.len())
            .filter(|end| (first..=last).contains(end));
        let dead = self.dead.get(index).copied().flatten();
        // The ends still to search, in the order they are tried.
        const EMPTY: (usize, usize) = (1, 0);
        let mut ranges = match dead {
            Some(d) if d.from <= last && d.to >= first => [
                d.from.checked_sub(1).map_or(EMPTY, |to| (first, to)),
                d.to.checked_add(1).map_or(EMPTY, |from| (from, last)),
            ],
            _ => [(first, last), EMPTY],
        };
        let greedy = matches!(token, Token::Message | Token::Throwable);
        if greedy {
            ranges.reverse();
            if let Some(end) = trimmed_end
                && !dead.is_some_and(|d| d.contains(end))
                && self.accept(index, token, pos, end)
            {
                return true;
            }
        }
        for (from, to) in ranges {
            if from > to {
                continue;
            }
            let window_end = (to + lit.len()).min(line.len());
            if from >= window_end || !self.spend((window_end - from) as u64) {
                continue;
            }
            let window = &line.as_bytes()[from..window_end];
            let found = if greedy {
                searchers
                    .backward
                    .rfind_iter(window)
                    .any(|at| self.spend(1) && self.accept(index, token, pos, from + at))
            } else {
                searchers
                    .forward
                    .find_iter(window)
                    .any(|at| self.spend(1) && self.accept(index, token, pos, from + at))
            };
            if found {
                return true;
            }
        }
        if !greedy
            && let Some(end) = trimmed_end
            && !dead.is_some_and(|d| d.contains(end))
            && self.accept(index, token, pos, end)
        {
            return true;
        }
        self.mark_dead(index, first, last);
        false
    }

    /// Records that no end in `from..=to` of field `index` lets the rest of the pattern match.
    fn mark_dead(&mut self, index: usize, from: usize, to: usize) {
        if self.dead.len() <= index {
            self.dead.resize(self.pattern.tokens.len(), None);
        }
        let merged = match self.dead[index] {
            // Overlapping or adjacent: one range.
            Some(d) if d.from <= to.saturating_add(1) && from <= d.to.saturating_add(1) => {
                DeadEnds {
                    from: d.from.min(from),
                    to: d.to.max(to),
                }
            }
            _ => DeadEnds { from, to },
        };
        self.dead[index] = Some(merged);
    }

    /// Where the run of logger bytes that `pos` is in ends (measured once per run).
    fn logger_run_end(&mut self, pos: usize) -> usize {
        if let Some((start, end)) = self.logger_run
            && (start..=end).contains(&pos)
        {
            return end;
        }
        let run = self.line.as_bytes()[pos..]
            .iter()
            .take_while(|&&b| is_logger_byte(b))
            .count();
        self.spend(run as u64);
        self.logger_run = Some((pos, pos + run));
        pos + run
    }

    /// Takes `line[pos..end]` as the field's value and matches the rest of the pattern after it.
    fn accept(&mut self, index: usize, token: &Token, pos: usize, end: usize) -> bool {
        record_field(&mut self.header, token, &self.line[pos..end]);
        self.at(index + 1, end)
    }
}

/// Stores a variable field's value in the header.
fn record_field<'a>(header: &mut Header<'a>, token: &Token, value: &'a str) {
    match token {
        Token::Thread => header.thread = Some(value),
        Token::Logger => header.logger = Some(value),
        Token::Message => header.message = value,
        Token::Throwable => header.throwable = Some(value.trim_end()),
        _ => {}
    }
}

/// The level at `pos`: the level, where its word ends, and how many padding spaces follow it
/// (each of `0..=spaces` may be where the next token starts).
fn read_level(line: &str, pos: usize, width: usize) -> Option<(Level, usize, usize)> {
    let rest = &line.as_bytes()[pos..];
    let leading = rest
        .iter()
        .take(MAX_LEVEL_LEADING)
        .take_while(|&&b| b == b' ')
        .count();
    let word_len = rest[leading..]
        .iter()
        .take(MAX_LEVEL_WORD)
        .take_while(|b| b.is_ascii_uppercase())
        .count();
    let level = Level::parse(&line[pos + leading..pos + leading + word_len])?;
    let end = pos + leading + word_len;
    // `%p` is often configured as `%-5p`: allow up to five columns whatever the pattern says.
    // Padding is optional too: copies squeeze `INFO  |` to `INFO |`.
    let padding = width.max(5).saturating_sub(word_len);
    let spaces = line.as_bytes()[end..]
        .iter()
        .take(padding)
        .take_while(|&&b| b == b' ')
        .count();
    Some((level, end, spaces))
}

/// The length of the `%L` line number at the start of `rest` (0: none).
fn line_number_digits(rest: &str) -> usize {
    rest.bytes()
        .take(MAX_LINE_DIGITS)
        .take_while(u8::is_ascii_digit)
        .count()
}

/// Tokens at most in a pattern given a plan. On a line the plan matches, the backtracking
/// matcher's first path spends at most one unit per token and `2 × line length + 2` per variable
/// field: with this many tokens that stays within its budget, so it reaches the same match.
const MAX_PLAN_TOKENS: usize = 32;

/// A straight-line walk of a pattern whose variable fields each end at the literal after them
/// or at the line's end: each step takes the choice the backtracking matcher tries first (the
/// first `] ` after a thread, the last ` | ` before an audit throwable, the most level padding).
/// When that path matches, it is the match the backtracking matcher settles on; when it fails
/// after a choice that had alternatives, only the backtracking matcher can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Plan {
    steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// A literal, and the literal without its trailing spaces when only an empty throwable may
    /// follow it: a line whose trailing spaces were trimmed ends there.
    Literal {
        literal: String,
        trimmed: Option<String>,
    },
    Date {
        parts: Vec<DatePart>,
        dated: bool,
    },
    /// `yyyy-MM-dd HH:mm:ss,SSS`, the date of nearly every line, read without walking its parts.
    Iso8601Date,
    Level {
        width: usize,
    },
    LineNumber,
    /// A variable field (a `Token::Thread`, `Logger`, …) ended by the literal after it.
    Field {
        field: Token,
        literal: Box<LiteralSearchers>,
        trimmed: Option<String>,
    },
    /// The last token, a variable field: it runs to the line's end.
    FieldToEnd {
        field: Token,
    },
}

/// What a plan tells of a line.
enum Walk<'a> {
    Matched(Header<'a>),
    /// The walk failed before any choice: no other path exists.
    NoMatch,
    /// The walk failed after a choice the backtracking matcher may revise.
    Undecided,
}

impl Plan {
    /// A plan for `tokens`, unless a variable field is followed by another non-literal token (the
    /// backtracking matcher rejects those lines anyway) or the pattern is longer than
    /// [`MAX_PLAN_TOKENS`].
    fn new(tokens: &[Token], searchers: &[Option<LiteralSearchers>]) -> Option<Plan> {
        if tokens.len() > MAX_PLAN_TOKENS {
            return None;
        }
        // The same condition as the backtracking matcher's trimmed-line ends.
        let trimmed_at = |index: usize| match &tokens[index] {
            Token::Literal(literal)
                if literal.trim_end().len() < literal.len()
                    && tokens[index + 1..]
                        .iter()
                        .all(|t| matches!(t, Token::Throwable | Token::Ignored)) =>
            {
                Some(literal.trim_end().to_string())
            }
            _ => None,
        };
        let steps = tokens
            .iter()
            .enumerate()
            .map(|(index, token)| {
                Some(match token {
                    Token::Literal(literal) => Step::Literal {
                        literal: literal.clone(),
                        trimmed: trimmed_at(index),
                    },
                    Token::Date(parts) if date_parts("ISO8601").as_ref() == Some(parts) => {
                        Step::Iso8601Date
                    }
                    Token::Date(parts) => Step::Date {
                        parts: parts.clone(),
                        dated: is_dated(parts),
                    },
                    Token::Level { width } => Step::Level { width: *width },
                    Token::LineNumber => Step::LineNumber,
                    field => match searchers.get(index + 1) {
                        None => Step::FieldToEnd {
                            field: field.clone(),
                        },
                        Some(Some(literal)) => Step::Field {
                            field: field.clone(),
                            literal: Box::new(literal.clone()),
                            trimmed: trimmed_at(index + 1),
                        },
                        Some(None) => return None,
                    },
                })
            })
            .collect::<Option<Vec<Step>>>()?;
        Some(Plan { steps })
    }

    /// Walks `line` along the backtracking matcher's first path (see `Matcher::at` and
    /// `Matcher::variable`, whose choices each step repeats).
    fn walk<'a>(&self, line: &'a str) -> Walk<'a> {
        let bytes = line.as_bytes();
        let content_end = line.trim_end().len();
        let mut header = Header::default();
        let mut pos = 0;
        // Whether a step so far took one of several choices: a failure after it proves nothing.
        let mut chose = false;
        let fail = |chose: bool| {
            if chose {
                Walk::Undecided
            } else {
                Walk::NoMatch
            }
        };
        let ends_trimmed_line = |pos: usize, trimmed: &Option<String>| {
            trimmed
                .as_deref()
                .is_some_and(|trimmed| &line[pos..content_end.max(pos)] == trimmed)
        };
        for (index, step) in self.steps.iter().enumerate() {
            match step {
                Step::Literal { literal, trimmed } => {
                    if starts_with(&bytes[pos..], literal.as_bytes()) {
                        pos += literal.len();
                        continue;
                    }
                    if ends_trimmed_line(pos, trimmed) {
                        return Walk::Matched(header);
                    }
                    return fail(chose);
                }
                Step::Date { parts, dated } => {
                    let Some((time, used)) = parse_date(parts, &line[pos..]) else {
                        return fail(chose);
                    };
                    header.time = dated.then_some(time);
                    pos += used;
                }
                Step::Iso8601Date => {
                    let Some(time) = parse_iso8601(&line[pos..]) else {
                        return fail(chose);
                    };
                    header.time = Some(time);
                    pos += ISO8601_LEN;
                }
                Step::Level { width } => {
                    let Some((level, end, spaces)) = read_level(line, pos, *width) else {
                        return fail(chose);
                    };
                    header.level = Some(level);
                    // The padding is tried from the most spaces down; before a literal, a pad
                    // that the literal does not follow fails at once (`INFO org.X` in `%p %c`).
                    let pad = match self.steps.get(index + 1) {
                        Some(Step::Literal { literal, trimmed }) => {
                            (0..=spaces).rev().find(|pad| {
                                starts_with(&bytes[end + pad..], literal.as_bytes())
                                    || ends_trimmed_line(end + pad, trimmed)
                            })
                        }
                        _ => Some(spaces),
                    };
                    let Some(pad) = pad else {
                        return fail(chose);
                    };
                    chose |= pad > 0;
                    pos = end + pad;
                }
                Step::LineNumber => {
                    let digits = line_number_digits(&line[pos..]);
                    if digits == 0 {
                        return fail(chose);
                    }
                    pos += digits;
                }
                Step::FieldToEnd { field } => {
                    let end = line.trim_end_matches(['\r', '\n']).len().max(pos);
                    record_field(&mut header, field, &line[pos..end]);
                    pos = end;
                }
                Step::Field {
                    field,
                    literal,
                    trimmed,
                } => {
                    let (first, last) = if *field == Token::Logger {
                        let run = bytes[pos..]
                            .iter()
                            .take_while(|&&b| is_logger_byte(b))
                            .count();
                        (pos + 1, pos + run)
                    } else {
                        (pos, line.len())
                    };
                    if first > last {
                        return fail(chose);
                    }
                    let tail = &line[pos..content_end.max(pos)];
                    let trimmed_end = trimmed
                        .as_deref()
                        .filter(|trimmed| tail.ends_with(trimmed))
                        .map(|trimmed| pos + tail.len() - trimmed.len())
                        .filter(|end| (first..=last).contains(end));
                    let needle = literal.forward.needle();
                    let window = || {
                        let window_end = (last + needle.len()).min(line.len());
                        bytes.get(first..window_end).unwrap_or_default()
                    };
                    let end = if matches!(field, Token::Message | Token::Throwable) {
                        trimmed_end
                            .or_else(|| literal.backward.rfind(window()).map(|at| first + at))
                    } else if *field == Token::Logger
                        && needle.first().is_some_and(|&b| !is_logger_byte(b))
                    {
                        // Inside the run of logger bytes, a literal that starts with another byte
                        // can only start where the run ends (`OMAudit | `, `a.B: `).
                        (starts_with(&bytes[last..], needle).then_some(last)).or(trimmed_end)
                    } else {
                        (literal.forward.find(window()).map(|at| first + at)).or(trimmed_end)
                    };
                    let Some(end) = end else {
                        return fail(chose);
                    };
                    chose = true;
                    record_field(&mut header, field, &line[pos..end]);
                    pos = end;
                }
            }
        }
        if pos >= content_end {
            Walk::Matched(header)
        } else {
            fail(chose)
        }
    }
}

/// Whether a date format places a record in time: a time of day without a date
/// (`%d{HH:mm:ss.SSS}`) does not.
fn is_dated(parts: &[DatePart]) -> bool {
    [DatePart::Year, DatePart::Day]
        .iter()
        .all(|p| parts.contains(p))
}

/// `hay` starts with `needle`, a layout's literal of a few bytes (` | `, `] `), compared in
/// line ([`same_bytes`]).
fn starts_with(hay: &[u8], needle: &[u8]) -> bool {
    hay.get(..needle.len())
        .is_some_and(|head| same_bytes(head, needle))
}

fn is_logger_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'$' | b'_' | b'-')
}

/// SimpleDateFormat letters oztrace reads, and log4j's named formats.
fn date_parts(format: &str) -> Option<Vec<DatePart>> {
    let format = match format {
        "ISO8601" | "DEFAULT" => "yyyy-MM-dd HH:mm:ss,SSS",
        "ISO8601_BASIC" => "yyyyMMdd'T'HHmmss,SSS",
        "DATE" => "dd MMM yyyy HH:mm:ss,SSS",
        "ABSOLUTE" => "HH:mm:ss,SSS",
        "COMPACT" | "UNIX" | "UNIX_MILLIS" => return None,
        other => other,
    };
    let mut parts = Vec::new();
    let mut chars = format.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
            continue;
        }
        if quoted || !c.is_ascii_alphabetic() {
            parts.push(DatePart::Literal(c));
            continue;
        }
        let mut count = 1;
        while chars.peek() == Some(&c) {
            chars.next();
            count += 1;
        }
        parts.push(match (c, count) {
            ('y', _) => DatePart::Year,
            ('M', 1 | 2) => DatePart::Month,
            ('M', _) => DatePart::MonthName,
            ('d', _) => DatePart::Day,
            ('H', _) => DatePart::Hour,
            ('m', _) => DatePart::Minute,
            ('s', _) => DatePart::Second,
            ('S', _) => DatePart::Millis,
            _ => return None,
        });
    }
    Some(parts)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The length of an ISO8601 date, `2026-08-20 14:02:10,331`.
const ISO8601_LEN: usize = 23;

/// [`parse_date`] for the parts of `yyyy-MM-dd HH:mm:ss,SSS`, with the same leniency: `T` for
/// the space, `.` for the comma, digits not checked for range.
fn parse_iso8601(s: &str) -> Option<LocalTime> {
    let b: &[u8; ISO8601_LEN] = s.as_bytes().get(..ISO8601_LEN)?.try_into().ok()?;
    let separators = b[4] == b'-'
        && b[7] == b'-'
        && matches!(b[10], b' ' | b'T')
        && b[13] == b':'
        && b[16] == b':'
        && matches!(b[19], b',' | b'.');
    if !separators {
        return None;
    }
    let number = |digits: &[u8]| {
        digits.iter().try_fold(0i32, |acc, &d| {
            d.is_ascii_digit().then(|| acc * 10 + i32::from(d - b'0'))
        })
    };
    Some(LocalTime {
        year: number(&b[0..4])? as i16,
        month: number(&b[5..7])? as i8,
        day: number(&b[8..10])? as i8,
        hour: number(&b[11..13])? as i8,
        minute: number(&b[14..16])? as i8,
        second: number(&b[17..19])? as i8,
        milli: number(&b[20..23])? as i16,
    })
}

fn parse_date(parts: &[DatePart], s: &str) -> Option<(LocalTime, usize)> {
    let bytes = s.as_bytes();
    let mut pos = 0;
    let mut t = LocalTime {
        year: 1970,
        month: 1,
        day: 1,
        hour: 0,
        minute: 0,
        second: 0,
        milli: 0,
    };
    let digits = |pos: usize, n: usize| -> Option<i32> {
        let field = bytes.get(pos..pos + n)?;
        field.iter().try_fold(0i32, |acc, &b| {
            b.is_ascii_digit().then(|| acc * 10 + i32::from(b - b'0'))
        })
    };
    for part in parts {
        match *part {
            DatePart::Year => {
                t.year = digits(pos, 4)? as i16;
                pos += 4;
            }
            DatePart::Month => {
                t.month = digits(pos, 2)? as i8;
                pos += 2;
            }
            DatePart::MonthName => {
                let name = s.get(pos..pos + 3)?;
                t.month = MONTHS.iter().position(|m| *m == name)? as i8 + 1;
                pos += 3;
            }
            DatePart::Day => {
                t.day = digits(pos, 2)? as i8;
                pos += 2;
            }
            DatePart::Hour => {
                t.hour = digits(pos, 2)? as i8;
                pos += 2;
            }
            DatePart::Minute => {
                t.minute = digits(pos, 2)? as i8;
                pos += 2;
            }
            DatePart::Second => {
                t.second = digits(pos, 2)? as i8;
                pos += 2;
            }
            DatePart::Millis => {
                t.milli = digits(pos, 3)? as i16;
                pos += 3;
            }
            DatePart::Literal(c) => {
                let got = *bytes.get(pos)? as char;
                // `,` and `.` before millis, ` ` and `T` between date and time are interchangeable:
                // log4j 1 and log4j2 disagree on what ISO8601 means.
                let same = got == c
                    || (matches!(c, ',' | '.') && matches!(got, ',' | '.'))
                    || (matches!(c, ' ' | 'T') && matches!(got, ' ' | 'T'));
                if !same {
                    return None;
                }
                pos += 1;
            }
        }
    }
    Some((t, pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "%d{ISO8601} [%t] %p %c: %m%n";

    #[test]
    fn file_layout_with_hard_thread_names() {
        let p = Pattern::compile(FILE).unwrap();
        let line = "2026-03-04 10:30:44,902 [3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c-EndpointStateMachineTaskThread-scm1.example.com:9861/scm1.example.com/10.20.0.11-0 ] WARN org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine: Unable to communicate to SCM server at scm1.example.com:9861/scm1.example.com/10.20.0.11 past 60 seconds.";
        let h = p.parse(line).unwrap();
        assert_eq!(h.level, Some(Level::Warn));
        assert!(h.thread.unwrap().ends_with("10.20.0.11-0 "));
        assert_eq!(
            h.logger,
            Some("org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine")
        );
        assert!(h.message.starts_with("Unable to communicate"));
        let t = h.time.unwrap();
        assert_eq!((t.hour, t.minute, t.second, t.milli), (10, 30, 44, 902));

        let bracketed = "2026-03-04 10:12:01,118 [pool [1] ] ERROR] INFO org.apache.ratis.server.RaftServer$Division: x: changes role";
        let h = p.parse(bracketed).unwrap();
        assert_eq!(h.thread, Some("pool [1] ] ERROR"));
        assert_eq!(
            h.logger,
            Some("org.apache.ratis.server.RaftServer$Division")
        );
    }

    #[test]
    fn audit_layout_success_failure_and_squeezed_padding() {
        let p =
            Pattern::compile("%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n").unwrap();
        let ok = "2026-08-20 14:02:10,331 | INFO  | SCMAudit | user=hadoop | ip=10.0.0.21 | op=DECOMMISSION_NODES {\"nodes\":\"[dn3.example.com]\",\"force\":\"false\"} | ret=SUCCESS |  ";
        let h = p.parse(ok).unwrap();
        assert_eq!(h.logger, Some("SCMAudit"));
        assert!(h.message.starts_with("user=hadoop | ip="));
        assert!(h.message.ends_with("ret=SUCCESS"));
        assert_eq!(h.throwable, Some(""));

        let squeezed = ok.replace("| INFO  |", "| INFO |");
        assert_eq!(p.parse(&squeezed).unwrap().level, Some(Level::Info));
        let trimmed = ok.trim_end();
        assert!(p.parse(trimmed).unwrap().message.ends_with("ret=SUCCESS"));

        let failure = "2025-11-04 08:00:05,003 | ERROR | OMAudit | user=hbase | ip=10.20.0.12 | op=RECOVER_LEASE {\"volume\":\"hbase\"} | ret=FAILURE | KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD org.apache.hadoop.ozone.om.exceptions.OMException: Open Key x updated recently";
        let h = p.parse(failure).unwrap();
        assert_eq!(h.level, Some(Level::Error));
        assert!(h.message.ends_with("ret=FAILURE"));
        assert!(
            h.throwable
                .unwrap()
                .starts_with("KEY_UNDER_LEASE_SOFT_LIMIT_PERIOD")
        );
    }

    #[test]
    fn old_docker_layout_without_millis() {
        let p = Pattern::compile("%d{yyyy-MM-dd HH:mm:ss} %-5p %c{1}:%L - %m%n").unwrap();
        let h = p
            .parse("2021-03-01 10:00:01 INFO  SCMNodeManager:412 - Registered Data node : x")
            .unwrap();
        assert_eq!(h.logger, Some("SCMNodeManager"));
        assert_eq!(h.message, "Registered Data node : x");
        assert_eq!(h.time.unwrap().milli, 0);
    }

    #[test]
    fn test_layout_and_glued_layout() {
        let test = Pattern::compile("%d{ISO8601} [%t] %p %c{2} (%F:%M(%L)) - %m%n").unwrap();
        let h = test
            .parse("2026-01-02 03:04:05,678 [main] INFO node.SCMNodeManager (SCMNodeManager.java:register(412)) - Registered")
            .unwrap();
        assert_eq!(h.logger, Some("node.SCMNodeManager"));
        assert_eq!(h.message, "Registered");
        let glued = Pattern::compile("%d{ISO8601} %p [%t]-%c: %m%n").unwrap();
        let h = glued
            .parse("2026-01-02 03:04:05,678 INFO [IPC Server handler 3 on default port 9861]-org.apache.hadoop.hdds.scm.node.SCMNodeManager: hi")
            .unwrap();
        assert_eq!(h.thread, Some("IPC Server handler 3 on default port 9861"));
        assert_eq!(h.message, "hi");
    }

    #[test]
    fn rejects_other_layouts_and_continuations() {
        let p = Pattern::compile(FILE).unwrap();
        assert!(p.parse("\tat org.apache.Foo.bar(Foo.java:1)").is_none());
        assert!(
            p.parse("2026-01-02 03:04:05,678 INFO org.apache.X: vendor")
                .is_none()
        );
        assert!(
            p.parse("2026-01-02 03:04:05,678 [t] NOTALEVEL org.X: y")
                .is_none()
        );
        assert!(p.parse("2026-13-02 03:04").is_none());
    }

    #[test]
    fn compile_errors_name_the_column() {
        let err = Pattern::compile("%d{ISO8601 [%t]").unwrap_err();
        assert!(err.column > 1, "{err}");
        assert!(Pattern::compile("%d [%t] %p").is_err());
        assert!(Pattern::compile("%d{UNIX} %m").is_err());
    }

    #[test]
    fn a_time_of_day_without_a_date_gives_no_time() {
        let p = Pattern::compile("%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n").unwrap();
        let h = p
            .parse("14:02:10.331 [main] INFO  org.apache.X - hi")
            .unwrap();
        assert_eq!((h.time, h.message), (None, "hi"));
        let p = Pattern::compile("%d{ABSOLUTE} %p %c: %m").unwrap();
        assert_eq!(p.parse("14:02:10,331 WARN a.B: m").unwrap().time, None);
    }

    #[test]
    fn iso8601_reads_as_the_generic_date_parts_do() {
        let parts = date_parts("ISO8601").unwrap();
        let line = "2026-08-20 14:02:10,331 rest";
        let mut cases: Vec<String> = (0..=line.len()).map(|n| line[..n].to_string()).collect();
        for at in 0..=ISO8601_LEN {
            for c in ['0', '9', '-', ' ', 'T', ',', '.', ':', 'a', '|', 'é'] {
                let mut case = line.to_string();
                case.replace_range(at..at + 1, c.encode_utf8(&mut [0; 4]));
                cases.push(case);
            }
        }
        for case in cases {
            let generic = parse_date(&parts, &case);
            assert_eq!(
                parse_iso8601(&case).map(|t| (t, ISO8601_LEN)),
                generic,
                "{case:?}"
            );
        }
    }

    #[test]
    fn log4j2_iso8601_with_t_and_percent_literal() {
        let p = Pattern::compile("%d{yyyy-MM-dd'T'HH:mm:ss.SSS} 100%% %p %c: %m").unwrap();
        let h = p.parse("2026-01-02T03:04:05.678 100% WARN a.B: m").unwrap();
        assert_eq!(h.time.unwrap().milli, 678);
        assert_eq!(h.message, "m");
    }

    /// Pieces of lines that make a backtracking matcher retry each field end against every
    /// later separator, repeated after each prefix.
    const STRESS_CHUNKS: [&str; 9] = [
        "] INFO : ",
        "] INFO a: ",
        " | INFO | a | ",
        "[a-b: (c:d(1)) - ",
        "-a.b-c: ",
        "  INFO   ",
        "0000000000000",
        "WARNINGWARNING ",
        ": : ] ] | | ( ) - ",
    ];
    const STRESS_PREFIXES: [&str; 3] = [
        "",
        "2026-08-20 14:02:10,331 [",
        "2026-08-20 14:02:10,331 | INFO  | ",
    ];

    /// Lines built to make a backtracking matcher retry each field end against every later
    /// separator: the work (states, candidate ends, bytes searched) must grow linearly with the
    /// line, well below the budget that guards against unforeseen shapes.
    #[test]
    fn matching_work_is_linear_in_the_line_length() {
        let builtin = crate::layout::builtin_layouts()
            .iter()
            .map(|l| l.pattern.source().to_string());
        let custom = [
            "%t-%c: %m%n",
            "%d [%t] %p %c{2} (%F:%M(%L)) - %m%n",
            "%d{ISO8601} %X{user} %X{op} [%t] %p %c: %m %throwable",
            "%m | %t | %c | %m",
        ]
        .map(String::from);
        for source in builtin.chain(custom) {
            let pattern = Pattern::compile(&source).unwrap();
            for prefix in STRESS_PREFIXES {
                for chunk in STRESS_CHUNKS {
                    let work = |copies: usize| {
                        let line = format!("{prefix}{}", chunk.repeat(copies));
                        let (_, work) = pattern.parse_counting_work(&line);
                        (line.len() as u64, work)
                    };
                    let (short_len, short) = work(1_000);
                    let (long_len, long) = work(8_000);
                    let context = format!("`{source}` on `{prefix}` + `{chunk}`×n");
                    assert!(
                        long <= 12 * long_len,
                        "{context}: {long} for {long_len} bytes"
                    );
                    // Eight times the line, at most about eight times the work.
                    assert!(
                        long <= 9 * short + 1000,
                        "{context}: {short} for {short_len} bytes, {long} for {long_len}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_lines_still_match() {
        let p = Pattern::compile(FILE).unwrap();
        let message = "x] INFO a: ".repeat(100_000);
        let line = format!("2026-08-20 14:02:10,331 [main] INFO org.apache.X: {message}");
        let h = p.parse(&line).unwrap();
        assert_eq!((h.thread, h.logger), (Some("main"), Some("org.apache.X")));
        assert_eq!(h.message, message);
        let audit =
            Pattern::compile("%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n").unwrap();
        let body = "user=u | ip=1 | op=X {} ".repeat(50_000);
        let line = format!("2026-08-20 14:02:10,331 | INFO  | OMAudit | {body}| ret=SUCCESS |  ");
        let h = audit.parse(&line).unwrap();
        assert!(h.message.ends_with("| ret=SUCCESS"));
        assert_eq!(h.throwable, Some(""));
    }

    /// Lines of every file under samples/ (gzip ones unpacked), and what each wrapper leaves
    /// of them.
    fn sample_lines() -> Vec<String> {
        use std::io::Read;
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../samples"
        ))];
        let mut lines = std::collections::BTreeSet::new();
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let mut bytes = std::fs::read(&path).unwrap();
                if path.extension().is_some_and(|e| e == "gz") {
                    let mut unpacked = Vec::new();
                    flate2::read::MultiGzDecoder::new(&bytes[..])
                        .read_to_end(&mut unpacked)
                        .unwrap();
                    bytes = unpacked;
                }
                for line in String::from_utf8_lossy(&bytes).split('\n') {
                    for framing in crate::frame::Framing::ALL {
                        if let Some(framed) = framing.split(line) {
                            lines.insert(framed.rest.to_string());
                        }
                    }
                    lines.insert(line.to_string());
                }
            }
        }
        lines.into_iter().collect()
    }

    /// Lines that lead the first path astray or end it early.
    const TRICKY_LINES: &[&str] = &[
        "2026-03-04 10:12:01,118 [pool [1] ] ERROR] INFO org.apache.ratis.server.RaftServer$Division: x: changes role",
        "2026-03-04 10:12:01,118 [pool-1 ] INFO x] WARN org.apache.X: m",
        "2026-03-04 10:12:01,118 [main ] INFO org.apache.X: thread with a trailing space",
        "2026-03-04 10:12:01,118 [IPC Server handler 3 on 9861] INFO org.apache.X: m] INFO a: b",
        "2026-03-04 10:12:01,118 [main] INFO org.apache.X:no space",
        "2026-03-04 10:12:01,118 [main] INFO : empty logger",
        "2026-03-04 10:12:01,118 [main] INFO  org.apache.X: padded",
        "2026-03-04 10:12:01,118 [main] INFO org.apache.X: m \r",
        "2026-03-04 10:12:01,118 [main] INFO org.apache.X: ",
        "2026-03-04 10:12:01,118 [main] INFO org.apache.X:",
        "2026-03-04 10:12:01,118 [pööl] INFO a.B: ü | ] ",
        "2026-03-04T10:12:01.118 [main] WARNING a.B: m",
        "2026-03-04 10:12:01,118 INFO [IPC Server handler 3] ]-a.B: m",
        "2026-03-04 10:12:01,118 INFO [a]-b]-c.D: m",
        "2026-03-04 10:12:01,118 INFO a.B: m",
        "2026-03-04 10:12:01,118 INFO  a.B: m",
        "2026-03-04 10:12:01,118 [main] INFO node.X (X.java:run(12)) - m (Y.java:z(3)) - n",
        "2026-03-04 10:12:01,118 [main] INFO node.X (X.java:run()) - m",
        "2026-08-20 14:02:10,331 | INFO  | OMAudit | user=a | ip=b | op=X {} | ret=SUCCESS |  ",
        "2026-08-20 14:02:10,331 | INFO  | OMAudit | user=a | ip=b | op=X {} | ret=SUCCESS | ",
        "2026-08-20 14:02:10,331 | INFO  | OMAudit | user=a | ip=b | op=X {} | ret=SUCCESS |",
        "2026-08-20 14:02:10,331 | INFO  | OMAudit | user=a | ip=b | op=X {} | ret=SUCCESS",
        "2026-08-20 14:02:10,331 | INFO | OMAudit | user=a | ret=SUCCESS |  ",
        "2026-08-20 14:02:10,331 | INFO| OMAudit | user=a | ret=SUCCESS |  ",
        "2026-08-20 14:02:10,331 | WARN  | OMAudit | user=a | ret=FAILURE | E x.Y: a | b | c",
        "2026-08-20 14:02:10,331 | ERROR | OMAudit | user=a | ret=FAILURE | E x.Y: a |  ",
        "2026-08-20 14:02:10,331 | ERROR | OMAudit | user=a | ret=FAILURE |  \r",
        "2026-08-20 14:02:10,331 | INFO  | Audit-1 | msg |  ",
        "2026-08-20 14:02:10,331 | INFO  |  | msg |  ",
        "2026-08-20 14:02:10,331 | INFO  | ID=1 | Index=0 | State=OPEN |  ",
        "2026-08-20 14:02:10,331 | INFO  | ID=1 | Index=0 | State=OPEN",
        "2026-08-20 14:02:10,331 | INFO  |",
        "2026-08-20 14:02:10,331 | INFO  | ",
        "2021-03-01 10:00:01 INFO  SCMNodeManager:412 - Registered",
        "2021-03-01 10:00:01 INFO  SCMNodeManager:41234567890 - long line number",
        "2021-03-01 10:00:01 INFO  SCMNodeManager: - no line number",
        "2026-08-20 14:02:10,331 [INFO|org.apache.X|X] m",
        "2026-08-20 14:02:10,331 [INFO|org.apache.X|X]",
        "[main] INFO a.B: untimed",
        "[main] ] INFO a.B: untimed",
        "INFO  node.X (X.java:run(12)) - untimed",
        "WARN  X:242 - untimed",
        "ERROR org.apache.X: untimed",
        "WARN org.apache.X.run",
        " INFO org.apache.X: right-aligned",
        "14:02:10.331 [main] INFO  org.apache.X - m",
        "14:02:10,331 WARN a.B: m",
        "\tat org.apache.Foo.bar(Foo.java:1)",
        "Caused by: java.io.IOException: x",
        "\t... 12 more",
        "",
        " ",
        "2026-13-02 03:04",
        "2026-08-20 14:02:10,331",
        "2026-08-20 14:02:10,331 [",
        "2026-08-20 14:02:10,331 [t] INFORMATION a: b",
        "2026-08-20 14:02:10,331 [t] NOTALEVEL org.X: y",
        "2026-08-20 14:02:10,331 [t]",
    ];

    /// Patterns beyond the built-ins: other field orders, a right-aligned level, fields with
    /// nothing between them, a greedy field before a literal that repeats, a logger ended by a
    /// logger byte.
    const CUSTOM_PATTERNS: &[&str] = &[
        "%t-%c: %m%n",
        "%d [%t] %p %c{2} (%F:%M(%L)) - %m%n",
        "%d{ISO8601} %X{user} %X{op} [%t] %p %c: %m %throwable",
        "%m | %t | %c | %m",
        "%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n",
        "%d{ABSOLUTE} %p %c: %m",
        "%d{ISO8601} <%p> %c - %m",
        "%5p [%t] %c: %m%n",
        "%d{DEFAULT} | %-5level | %msg | %throwable{3} | %t %n",
        "%d{ISO8601} [%t] %p%c: %m%n",
        "%d{ISO8601} %p %c%m%n",
        "%p %c.%m%n",
    ];

    /// The plan decides a line only as the backtracking matcher does, and `parse` gives the
    /// backtracking matcher's header: every sample line and tricky line (and short repeats of
    /// the chunks that stress the matcher) against every built-in layout and some custom ones.
    #[test]
    fn plan_gives_the_backtracking_matchers_headers() {
        let mut lines = sample_lines();
        lines.extend(TRICKY_LINES.iter().map(|l| l.to_string()));
        for (prefix, chunk) in STRESS_PREFIXES
            .iter()
            .flat_map(|p| STRESS_CHUNKS.map(|c| (p, c)))
        {
            lines.extend((1..=3).map(|copies| format!("{prefix}{}", chunk.repeat(copies))));
        }
        let builtin = crate::layout::builtin_layouts()
            .iter()
            .map(|l| l.pattern.clone());
        let custom = CUSTOM_PATTERNS.iter().map(|p| Pattern::compile(p).unwrap());
        // Walks of the built-in layouts that matched, failed for sure, or left it undecided.
        let (mut matched, mut no_match, mut undecided) = (0, 0, 0);
        for (index, pattern) in builtin.chain(custom).enumerate() {
            let is_builtin = usize::from(index < crate::layout::builtin_layouts().len());
            let Some(plan) = &pattern.plan else {
                assert_eq!(is_builtin, 0, "`{}` has no plan", pattern.source());
                continue;
            };
            for line in &lines {
                let backtracked = pattern.parse_counting_work(line).0;
                let context = format!("`{}` on {line:?}", pattern.source());
                match plan.walk(line) {
                    Walk::Matched(header) => {
                        matched += is_builtin;
                        assert_eq!(Some(header), backtracked, "{context}");
                    }
                    Walk::NoMatch => {
                        no_match += is_builtin;
                        assert_eq!(None, backtracked, "{context}");
                    }
                    Walk::Undecided => undecided += is_builtin,
                }
                assert_eq!(pattern.parse(line), backtracked, "{context}");
            }
        }
        // The plan decides nearly every line by itself, so the equalities above test it. It
        // leaves undecided mostly lines of another layout that fail after a thread or logger.
        assert!(matched > 20_000, "{matched} matched");
        assert!(
            undecided * 50 < matched + no_match,
            "{undecided} undecided of {}",
            matched + no_match + undecided
        );
    }
}
