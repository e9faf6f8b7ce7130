"""log4j output as Ozone writes it (catalogue: /work/shared/ozone-logs/, section "Layouts").

Times are naive UTC `datetime`s with millisecond precision.
"""
import datetime as dt
import json

MS = dt.timedelta(milliseconds=1)
SEC = dt.timedelta(seconds=1)
MIN = dt.timedelta(minutes=1)
HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)
EPOCH = dt.datetime(1970, 1, 1)


def ms(n):
    return n * MS


def sec(n):
    return n * SEC


def parse_time(s):
    """'2026-08-18 20:14:03.217' (or ',217', as log4j prints it) -> datetime"""
    return dt.datetime.strptime(s.replace(",", "."), "%Y-%m-%d %H:%M:%S.%f")


def timestamp(t):
    """%d{ISO8601} (log4j 1) and %d{DEFAULT} (log4j2): yyyy-MM-dd HH:mm:ss,SSS"""
    return t.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (t.microsecond // 1000)


def instant(t):
    """java.time.Instant.toString(): ISO-8601 in UTC, milliseconds only when not zero."""
    millis = t.microsecond // 1000
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (".%03d" % millis if millis else "") + "Z"


def epoch_ms(t):
    """System.currentTimeMillis() at `t`."""
    return (t - EPOCH) // MS


def from_epoch_ms(n):
    return EPOCH + n * MS


# ---- main logs (log4j 1 PatternLayout) ------------------------------------------------------------
LAYOUTS = {
    "file": "%d{ISO8601} [%t] %p %c: %m%n",      # Ozone's shipped log4j.properties (RFA appender)
    "console": "%d{ISO8601} [%t] %p %c{2}: %m%n",  # ConsoleAppender of the docker images (docker compose logs)
    "vendor": "%d{ISO8601} %p %c: %m%n",          # vendor-managed installs: no thread
}


def short_logger(logger, n=2):
    """%c{n}: the last n segments of the logger name."""
    return ".".join(logger.split(".")[-n:])


def log_lines(layout, t, thread, level, logger, msg, extra=()):
    """One record of a main log in `layout` (a key of LAYOUTS) as physical lines: the header line,
    the rest of a multi-line message, then `extra` (a stack trace)."""
    if layout == "file":
        head = "%s [%s] %s %s: " % (timestamp(t), thread, level, logger)
    elif layout == "console":
        head = "%s [%s] %s %s: " % (timestamp(t), thread, level, short_logger(logger))
    elif layout == "vendor":
        head = "%s %s %s: " % (timestamp(t), level, logger)
    else:
        raise ValueError(layout)
    return (head + msg).split("\n") + list(extra)


def slf4j(fmt, *args):
    """SLF4J substitution: args fill the leading {} in order; extra {} stay literal."""
    out = fmt
    for a in args:
        out = out.replace("{}", str(a), 1)
    return out


def frames(*methods):
    """Stack-trace lines `\\tat <method>` (a method as Throwable.printStackTrace prints it)."""
    return ["\tat " + m for m in methods]


# JDK frames under a pool thread, as JDK 17 and JDK 8 number them
JDK17_POOL_TAIL = [
    "java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)",
    "java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)",
    "java.base/java.lang.Thread.run(Thread.java:840)",
]
JDK8_POOL_TAIL = [
    "java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)",
    "java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)",
    "java.lang.Thread.run(Thread.java:750)",
]


# ---- log4j2 audit and dn-container logs --------------------------------------------------------------
def audit_lines(t, level, logger, msg, throwable=()):
    """log4j2 audit layout `%d{DEFAULT} | %-5level | %c{1} | %msg | %throwable{3} %n`: a success ends
    with `|  `; a failure carries the first three lines of its throwable, the last one followed by
    the space before %n."""
    rest = list(throwable)[:3] or [""]
    out = ["%s | %-5s | %s | %s | %s" % (timestamp(t), level, logger, msg, rest[0])] + rest[1:]
    out[-1] += " "
    return out


def container_log_line(t, level, msg):
    """dn-container log4j2 layout `%d{DEFAULT} | %-5level | %msg | %throwable{3} %n` (datanode.md 1.3)."""
    return "%s | %-5s | %s |  " % (timestamp(t), level, msg)


def audit_msg(user, ip, op, params, ret, latency_ms=None):
    """AuditMessage.formMessage: `user=U | ip=I | op=OP {params} | ret=R`, plus the performance
    audit's `| perf={preOpLatencyMs=0, opLatencyMs=N}` for a slow datanode op (datanode.md 1.2)."""
    s = "user=%s | ip=%s | op=%s %s | ret=%s" % (user, ip, op, params, ret)
    if latency_ms is not None:
        s += " | perf={preOpLatencyMs=0, opLatencyMs=%d}" % latency_ms
    return s


def json_params(d):
    """Audit params from 2.1.0 on: AuditMessage.formatParamsAsJson (Jackson, values strings)."""
    return json.dumps(d, separators=(",", ":"))


def map_params(d):
    """Audit params up to 2.0.0: Map.toString() of the audit map."""
    return "{" + ", ".join("%s=%s" % (k, v) for k, v in d.items()) + "}"


# ---- log4j.properties -----------------------------------------------------------------------------
CONSOLE_APPENDER = (
    "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
    "log4j.appender.console.target=System.err\n"
    "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
    "log4j.appender.console.layout.ConversionPattern=%s\n" % LAYOUTS["console"])

# hadoop-ozone/dist/src/shell/conf/log4j.properties as the docker images use it (console appender)
SHIPPED_CONSOLE_PROPERTIES = (
    "hadoop.root.logger=INFO,console\n"
    "hadoop.log.dir=.\n"
    "hadoop.log.file=hadoop.log\n"
    "log4j.rootLogger=${hadoop.root.logger}\n"
    "log4j.threshold=ALL\n"
    + CONSOLE_APPENDER +
    "log4j.logger.org.apache.ratis.conf.ConfUtils=WARN\n"
    "log4j.logger.org.apache.ratis.grpc.client.GrpcClientProtocolClient=WARN\n")


def logger_levels(levels):
    """log4j.properties lines setting the level of each (logger, level)."""
    return "".join("log4j.logger.%s=%s\n" % (logger, level) for logger, level in levels)
