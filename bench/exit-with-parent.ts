// Preloaded into every bench child: when the bench dies, even by SIGKILL, its IPC channel closes, and
// the child must not live on holding connections to the bench database.
process.on('disconnect', () => process.exit(1));
