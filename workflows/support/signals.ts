import { defineSignal } from '@temporalio/workflow';
import { SIGNALS, type SignalArgs } from '../../core/ports/workflow-names';

/** The workflows' signal definitions, under the names the Temporal adapters send (core/ports/workflow-names). */
export const rescheduleSignal = defineSignal<SignalArgs['reschedule']>(SIGNALS.reschedule);
export const cancelSignal = defineSignal<SignalArgs['cancel']>(SIGNALS.cancel);
export const pausedSignal = defineSignal<SignalArgs['paused']>(SIGNALS.paused);
export const pauseEndedSignal = defineSignal<SignalArgs['pauseEnded']>(SIGNALS.pauseEnded);
export const reconnectedSignal = defineSignal<SignalArgs['reconnected']>(SIGNALS.reconnected);
export const disconnectedSignal = defineSignal<SignalArgs['disconnected']>(SIGNALS.disconnected);
