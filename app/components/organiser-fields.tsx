import { ORGANISER_ABOUT_MAX, ORGANISER_NAME_MAX } from '@custom-room/contract/constants';
import { TextAreaField, TextField } from '~/components/ui/text-field';

/** Issue 29: the organiser's own fields, shared by the application and the page's editing. */

export const ORGANISER_FIELDS = ['name', 'slug', 'contact', 'about', 'whatsapp', 'instagram', 'youtube', 'discord'] as const;

const LINKS = [
  { name: 'whatsapp', label: 'WhatsApp link', hint: 'https://wa.me/… or a WhatsApp channel or group link' },
  { name: 'instagram', label: 'Instagram link', hint: 'https://instagram.com/…' },
  { name: 'youtube', label: 'YouTube link', hint: 'https://youtube.com/@…' },
  { name: 'discord', label: 'Discord link', hint: 'https://discord.gg/…' },
] as const;

export function OrganiserFields({
  value,
  errors,
  slugFixed,
}: {
  value: (name: string) => string;
  errors: Record<string, string> | undefined;
  /** The page address once chosen (it stays): shown, not asked. */
  slugFixed?: string;
}) {
  return (
    <>
      <TextField
        name="name"
        label="Organisation name"
        maxLength={ORGANISER_NAME_MAX}
        required
        autoComplete="organization"
        defaultValue={value('name')}
        error={errors?.name}
      />
      {slugFixed ? (
        <p className="fine">Page address: /organisers/{slugFixed} (it stays as it is, so shared links keep working).</p>
      ) : (
        <TextField
          name="slug"
          label="Page address (optional)"
          hint="Your page will be /organisers/… : 3 to 40 lower-case letters, digits and hyphens. Left blank, it is made from the name."
          autoCapitalize="none"
          autoComplete="off"
          maxLength={40}
          defaultValue={value('slug')}
          error={errors?.slug}
        />
      )}
      <TextField
        name="contact"
        label="Contact"
        hint="A phone number or an email the site admin can reach you at. Not shown on your page."
        required
        maxLength={120}
        defaultValue={value('contact')}
        error={errors?.contact}
      />
      <TextAreaField
        name="about"
        label="About (optional)"
        hint={`Who you are and what you run, in up to ${ORGANISER_ABOUT_MAX} characters.`}
        rows={4}
        maxLength={ORGANISER_ABOUT_MAX}
        defaultValue={value('about')}
        error={errors?.about}
      />
      {LINKS.map((l) => (
        <TextField
          key={l.name}
          name={l.name}
          label={`${l.label} (optional)`}
          hint={l.hint}
          type="url"
          inputMode="url"
          autoCapitalize="none"
          maxLength={200}
          defaultValue={value(l.name)}
          error={errors?.[l.name]}
        />
      ))}
    </>
  );
}
