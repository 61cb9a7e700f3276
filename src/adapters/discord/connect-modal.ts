import type { APIInteraction, APIInteractionGuildMember, APIUser, ModalSubmitInteraction } from 'discord.js';
import { type CommandInvocation, catalogFor, localeFromTag } from '../../core/index.js';
import { memberFacts } from './http-interactions/raw-interaction.js';
import { contextFromFacts, displayNameOf, type GuildInteractionFacts } from './interaction-invocation.js';

/** The modal's custom id: its submission (interaction type 5) comes back as the `connect` command. */
export const connectModalId = 'fundbot_connect';
/** Interaction type of a modal submission, and the callback that opens a modal. */
export const modalSubmitType = 5;
export const modalCallbackType = 9;

/**
 * The private form of `/connect` as a Discord modal (callback type 9): the project's link caption and its
 * API key in two short text inputs. Discord shows it to the admin only; its submission goes straight to
 * fundbot and never into a channel.
 */
export function connectModal(platformLocale: string) {
  const t = catalogFor(localeFromTag(platformLocale) ?? 'en').hosted;
  const input = (id: 'project' | 'key', label: string, hint: string, max: number) => ({
    type: 1,
    components: [
      {
        type: 4,
        custom_id: id,
        style: 1,
        label: label.slice(0, 45),
        placeholder: hint.slice(0, 100),
        required: true,
        max_length: max,
      },
    ],
  });
  return {
    custom_id: connectModalId,
    title: t.formTitle.slice(0, 45),
    components: [
      input('project', t.projectLabel, t.projectHint, 100),
      input('key', t.keyLabel, t.keyHint, 200),
    ],
  };
}

/** A submitted connect modal: who submitted it where, and the two values; undefined for anything else. */
export function connectSubmission(
  interaction: APIInteraction,
): { readonly facts: GuildInteractionFacts; readonly project: string; readonly key: string } | undefined {
  if (interaction.type !== modalSubmitType) return undefined;
  const data = interaction.data as {
    custom_id?: string;
    components?: { components?: { custom_id?: string; value?: string }[] }[];
  };
  if (data.custom_id !== connectModalId) return undefined;
  const facts = memberFacts(interaction, 'connect', () => undefined);
  if (!facts) return undefined;
  const inputs = (data.components ?? []).flatMap((row) => row.components ?? []);
  const value = (id: string) => inputs.find((c) => c.custom_id === id)?.value ?? '';
  return { facts, project: value('project'), key: value('key') };
}

/** The gateway's twin of {@link connectSubmission}: the `connect` invocation from a discord.js modal submission. */
export function gatewayConnectSubmission(interaction: ModalSubmitInteraction): CommandInvocation | undefined {
  if (interaction.customId !== connectModalId || !interaction.inGuild() || !interaction.memberPermissions) {
    return undefined;
  }
  const member = interaction.member as unknown as APIInteractionGuildMember;
  return {
    name: 'connect',
    options: {
      project: interaction.fields.getTextInputValue('project'),
      key: interaction.fields.getTextInputValue('key'),
    },
    context: contextFromFacts({
      commandName: 'connect',
      guildId: interaction.guildId,
      channelId: interaction.channelId,
      userId: interaction.user.id,
      displayName: displayNameOf(member, interaction.user as unknown as APIUser),
      permissions: interaction.memberPermissions,
      locale: interaction.locale,
      optionValue: () => undefined,
    }),
  };
}
