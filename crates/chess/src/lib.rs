//! Orthodox chess.
