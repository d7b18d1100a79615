//! Transcribed Argo CD generator tests.
