//! Event graph and replay.
