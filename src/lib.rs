//! goclaw: the GoClaw agent platform as a Unix toolbox.
pub mod text;
