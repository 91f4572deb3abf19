/**
 * What one continuous query may use and whether it must stop: a {@link
 * dev.freshet.executor.limits.QueryResources} per query, its {@link
 * dev.freshet.executor.limits.MemoryAccount}s per operator, and the engine's {@link
 * dev.freshet.executor.limits.MemoryPool}. The operators and the runtime both use them; this
 * package uses neither.
 */
package dev.freshet.executor.limits;
