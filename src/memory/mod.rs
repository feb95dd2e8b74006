//! Memory: an agent's context files and memory documents, kept in the store rather than on
//! disk ([`files`]), and the embeddings client that indexes memory documents for
//! `memory_search` ([`embed`]). The agent loop reads them into its prompt; the file and memory
//! tools read and write them; `goclaw agents files` edits them.

pub mod embed;
pub mod files;
